import { z } from 'zod';
import type { AppContext } from '../../../context.ts';
import type { authenticate } from '../../auth/index.ts';
import type { PaymentsService } from '../payments.ts';

/** What every payments route is registered with (one route per file in this folder). */
export type PaymentRoutesEnv = {
  context: AppContext;
  service: PaymentsService;
  /** The sign-in hook, made once for all the routes that need it. */
  signedIn: { onRequest: ReturnType<typeof authenticate> };
};

export const WALLET_TAGS = ['wallet'];
export const PROVIDER_TAGS = ['payment-provider'];
export const SANDBOX_TAGS = ['sandbox'];
/** As long as the idempotency keys the wallet rules accept (IDEMPOTENCY_KEY_PATTERN), so that a longer one is a 400 here. */
const IDEMPOTENCY_KEY_MAX_LENGTH = 64;
export const IDEMPOTENCY_HEADERS = z.object({
  'idempotency-key': z.string().max(IDEMPOTENCY_KEY_MAX_LENGTH).optional(),
});
