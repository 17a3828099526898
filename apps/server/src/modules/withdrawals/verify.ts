import type { VerifyPayoutRequest, VerifyPayoutResponse } from '@platform/contracts';
import { ProviderError } from '../../adapters/payments/index.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { providerOrNull } from '../wallet/fees.ts';
import type { WithdrawalDeps } from './deps.ts';
import type { PayoutProcessor } from './processor.ts';
import { withdrawalsByIds, withdrawalsForVerification } from './reads.ts';
import { toWithdrawal, type WithdrawalRow } from './rows.ts';

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
): Promise<Result<VerifyPayoutResponse>> {
  const code = String(request.verification_code).trim();
  if (!VERIFICATION_CODE_PATTERN.test(code)) {
    return fail('VERIFICATION_CODE_INVALID', {
      message: 'The verification code is 6 digits',
      details: { field: 'verification_code' },
    });
  }
  const reference = String(request.batch_withdrawal_id).trim();
  const rows = reference === '' ? [] : await withdrawalsForVerification(deps.db, accountId, reference);
  if (rows.length === 0) return fail('PAYOUT_NOT_FOUND');
  const waiting = rows.filter((row) => row.status === 'pending' && row.batch_id !== null && row.needs_verification);
  if (waiting.length === 0) return fail('PAYOUT_NOT_VERIFIABLE');
  const provider = providerOrNull(deps);
  if (provider === null) return fail('PROVIDER_UNAVAILABLE');
  const verified = await sendCode(deps, provider, waiting, code);
  if (!verified.ok) return verified;
  await deps.db.query(
    `UPDATE withdrawals SET needs_verification = false, updated_at = $3
     WHERE account_id = $1 AND id = ANY($2::uuid[]) AND status = 'pending'`,
    [accountId, waiting.map((row) => row.id), deps.clock()],
  );
  await readStatusAfterVerification(deps, processor, provider, waiting);
  const refreshed = await withdrawalsByIds(
    deps.db,
    rows.map((row) => row.id),
  );
  return ok({ success: true, batch_withdrawal_id: reference, withdrawals: refreshed.map(toWithdrawal) });
}

type Provider = NonNullable<ReturnType<typeof providerOrNull>>;

/** The code to the provider, once per batch: a refusal is a wrong code, anything else the provider's fault. */
async function sendCode(
  deps: WithdrawalDeps,
  provider: Provider,
  waiting: readonly WithdrawalRow[],
  code: string,
): Promise<Result<void>> {
  for (const batchId of new Set(waiting.map((row) => row.batch_id as string))) {
    try {
      await provider.verifyPayout(batchId, code);
    } catch (error) {
      if (error instanceof ProviderError && !error.details.retryable) {
        return fail('VERIFICATION_CODE_INVALID', { details: { field: 'verification_code' } });
      }
      deps.log.warn({ err: error, batchId }, 'payout verification failed at the provider');
      return fail('PROVIDER_UNAVAILABLE');
    }
  }
  return ok(undefined);
}

/**
 * The provider moves verified payouts on: read where they stand now (a failure here is only
 * logged; the poll catches up).
 */
async function readStatusAfterVerification(
  deps: WithdrawalDeps,
  processor: PayoutProcessor,
  provider: Provider,
  waiting: readonly WithdrawalRow[],
): Promise<void> {
  for (const row of waiting) {
    if (row.provider_reference === null) continue;
    try {
      await processor.applyUpdate(await provider.payoutStatus(row.provider_reference), row.id);
    } catch (error) {
      deps.log.warn({ err: error, withdrawalId: row.id }, 'payout status after verification could not be read');
    }
  }
}
