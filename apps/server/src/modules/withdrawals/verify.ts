import type { VerifyPayoutRequest, VerifyPayoutResponse } from '@platform/contracts';
import { ProviderError } from '../../adapters/payments/index.ts';
import { AppError } from '../../lib/errors.ts';
import { providerOrNull } from '../wallet/fees.ts';
import type { PayoutProcessor } from './processor.ts';
import { toWithdrawal, type WithdrawalDeps, withdrawalsByIds, withdrawalsForVerification } from './service.ts';

/** §9: codes are 6 digits. */
const VERIFICATION_CODE_PATTERN = /^\d{6}$/;

/**
 * POST /api/v1/wallet/verify-payout: hands the caller's verification code to the provider for a
 * payout waiting for it (NOWPayments' 2FA step before it sends), then reads the payouts' status
 * afresh. The payout is named by the provider's batch id, or by our withdrawal or payout id;
 * another account's is 'Payout not found'.
 */
export async function verifyPayout(
  deps: WithdrawalDeps,
  processor: PayoutProcessor,
  accountId: string,
  request: VerifyPayoutRequest,
): Promise<VerifyPayoutResponse> {
  const code = String(request.verification_code).trim();
  if (!VERIFICATION_CODE_PATTERN.test(code)) {
    throw new AppError('VERIFICATION_CODE_INVALID', {
      message: 'The verification code is 6 digits',
      details: { field: 'verification_code' },
    });
  }
  const reference = String(request.batch_withdrawal_id).trim();
  const rows = reference === '' ? [] : await withdrawalsForVerification(deps.db, accountId, reference);
  if (rows.length === 0) throw new AppError('PAYOUT_NOT_FOUND');
  const waiting = rows.filter((row) => row.status === 'pending' && row.batch_id !== null && row.needs_verification);
  if (waiting.length === 0) throw new AppError('PAYOUT_NOT_VERIFIABLE');
  const provider = providerOrNull(deps);
  if (provider === null) throw new AppError('PROVIDER_UNAVAILABLE');

  for (const batchId of new Set(waiting.map((row) => row.batch_id as string))) {
    try {
      await provider.verifyPayout(batchId, code);
    } catch (error) {
      if (error instanceof ProviderError && !error.details.retryable) {
        throw new AppError('VERIFICATION_CODE_INVALID', { details: { field: 'verification_code' } });
      }
      deps.log.warn({ err: error, batchId }, 'payout verification failed at the provider');
      throw new AppError('PROVIDER_UNAVAILABLE');
    }
  }
  await deps.db.query(
    `UPDATE withdrawals SET needs_verification = false, updated_at = $3
     WHERE account_id = $1 AND id = ANY($2::uuid[]) AND status = 'pending'`,
    [accountId, waiting.map((row) => row.id), deps.clock()],
  );
  // The provider moves verified payouts on: read where they stand now (a failure here is only
  // logged; the poll catches up).
  for (const row of waiting) {
    if (row.provider_reference === null) continue;
    try {
      await processor.applyUpdate(await provider.payoutStatus(row.provider_reference), row.id);
    } catch (error) {
      deps.log.warn({ err: error, withdrawalId: row.id }, 'payout status after verification could not be read');
    }
  }
  const refreshed = await withdrawalsByIds(
    deps.db,
    rows.map((row) => row.id),
  );
  return { success: true, batch_withdrawal_id: reference, withdrawals: refreshed.map(toWithdrawal) };
}
