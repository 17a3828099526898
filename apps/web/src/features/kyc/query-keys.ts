/** The KYC query keys of one account (kept apart from the wallet's: balance updates do not touch them). */
export const kycQueryKeys = {
  all: (accountId: string) => ['kyc', accountId] as const,
  status: (accountId: string) => ['kyc', accountId, 'status'] as const,
  submission: (accountId: string, id: string) => ['kyc', accountId, 'submission', id] as const,
};
