import {
  type CreateWithdrawalRequest,
  minimumAmountsSchema,
  payoutSchema,
  verifyPayoutResponseSchema,
  type Withdrawal,
  withdrawalFeeEstimateSchema,
  withdrawalLimitsSchema,
  withdrawalListResponseSchema,
  withdrawalSchema,
} from '@platform/contracts';
import { z } from 'zod';
import { apiClient } from './http.ts';
import { type PageRequest, withQuery } from './wallet.ts';

/**
 * Money going out (spec §3.5, §7.2, §7.3): the fee estimate and the minimums, a withdrawal to an
 * outside address, its status and the list of past ones. Currency codes go lower-cased (§5); every
 * answer is parsed with the contract's schema.
 */

/**
 * What a status call answers: the withdrawal itself, or the single-item payout it belongs to
 * (a withdrawal is a payout of one item). Either way the caller gets the withdrawal.
 */
const withdrawalOrPayoutSchema = z.union([withdrawalSchema, payoutSchema]);

function withdrawalFrom(answer: z.infer<typeof withdrawalOrPayoutSchema>, id: string): Withdrawal {
  if (!('withdrawals' in answer)) return answer;
  const item = answer.withdrawals.find((withdrawal) => withdrawal.id === id) ?? answer.withdrawals[0];
  if (!item) throw new Error('payout without withdrawals');
  return item;
}

export const withdrawalsApi = {
  /** §3.5 fee estimate (GET /api/v1/wallet/withdrawal-fee-estimate). */
  feeEstimate: (currency: string, amount: string, network?: string) =>
    apiClient.request(
      withQuery('/api/v1/wallet/withdrawal-fee-estimate', { currency: currency.toLowerCase(), amount, network }),
      { schema: withdrawalFeeEstimateSchema },
    ),

  /** The smallest withdrawal per currency, upper-case codes. */
  minimumAmounts: () => apiClient.request('/api/v1/wallet/minimum-amounts', { schema: minimumAmountsSchema }),

  /** The rolling 24-hour allowance of the account's verification tier. */
  limits: () => apiClient.request('/api/v1/wallet/withdrawal-limits', { schema: withdrawalLimitsSchema }),

  /**
   * POST /api/v1/wallet/withdraw. The key makes it idempotent: a retry (a lost answer, a double
   * click) with the same key gets the first withdrawal back instead of sending twice.
   */
  create: (body: CreateWithdrawalRequest, idempotencyKey: string) =>
    apiClient.request('/api/v1/wallet/withdraw', {
      method: 'POST',
      body: { ...body, currency: body.currency.toLowerCase() },
      headers: { 'Idempotency-Key': idempotencyKey },
      schema: withdrawalSchema,
    }),

  /** One withdrawal's current status (GET /api/v1/wallet/payout-status/{id}, spec §7.3). */
  status: async (id: string): Promise<Withdrawal> =>
    withdrawalFrom(
      await apiClient.request(`/api/v1/wallet/payout-status/${encodeURIComponent(id)}`, {
        schema: withdrawalOrPayoutSchema,
      }),
      id,
    ),

  /**
   * POST /api/v1/wallet/verify-payout: the code a provider that verifies payouts (NOWPayments) sent,
   * for a withdrawal waiting for it (verification_required).
   */
  verify: (batchWithdrawalId: string, verificationCode: string) =>
    apiClient.request('/api/v1/wallet/verify-payout', {
      method: 'POST',
      body: { batch_withdrawal_id: batchWithdrawalId, verification_code: verificationCode },
      schema: verifyPayoutResponseSchema,
    }),

  /** The account's withdrawals, newest first (GET /v1/wallet/payouts, spec §7.2). */
  list: (page: PageRequest = {}) =>
    apiClient.request(withQuery('/v1/wallet/payouts', { limit: page.limit, page: page.page }), {
      schema: withdrawalListResponseSchema,
    }),
};
