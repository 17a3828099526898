import { kycStatusResponseSchema, kycSubmissionSchema, kycSubmitResponseSchema } from '@platform/contracts';
import { apiClient } from './http.ts';
import { providerClient } from './provider-http.ts';

/**
 * The KYC calls (spec §3.4, §7.4): the account's verification status on the wallet service
 * (/api/v1/kyc/status), the submission and its details on the payment-provider API
 * (/v1/triple-a/kyc/...; 30 s timeout, the §7.8 reaction to a 401). Every answer is parsed with the
 * contract's schema.
 */
export const kycApi = {
  status: () => apiClient.request('/api/v1/kyc/status', { schema: kycStatusResponseSchema }),

  submission: (id: string) => providerClient.request(`/kyc/${encodeURIComponent(id)}`, { schema: kycSubmissionSchema }),

  /** A multipart body: the text fields by their §3.4 names and the files documentFront, documentBack, selfie. */
  submit: (body: FormData) =>
    providerClient.request('/kyc/submit', { method: 'POST', body, schema: kycSubmitResponseSchema }),
};
