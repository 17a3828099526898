import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import type { WithdrawalDeps } from './deps.ts';
import type { PayoutProcessor } from './processor.ts';
import { historyRoutes } from './routes/history.ts';
import { limitsRoute } from './routes/limits.ts';
import { networksRoute } from './routes/networks.ts';
import { payoutRoute } from './routes/payout.ts';
import { payoutStatusRoute } from './routes/payout-status.ts';
import { providerBalanceRoutes } from './routes/provider-balances.ts';
import { verifyPayoutRoute } from './routes/verify-payout.ts';
import { withdrawRoutes } from './routes/withdraw.ts';
import { singleWithdrawalRoutes } from './routes/withdrawal.ts';

/** Spec §7.3's withdrawal and payout calls, §7.2's payout list and §7.4's provider wallet facade, one file each. */
export function withdrawalRoutes(
  scope: FastifyInstance,
  context: AppContext,
  deps: WithdrawalDeps,
  processor: PayoutProcessor,
): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  withdrawRoutes(app, context, deps);
  singleWithdrawalRoutes(app, context, deps);
  payoutRoute(app, context, deps);
  payoutStatusRoute(app, context, deps);
  verifyPayoutRoute(app, context, deps, processor);
  historyRoutes(app, context, deps);
  limitsRoute(app, context, deps);
  networksRoute(app, context);
  providerBalanceRoutes(app, context, deps);
}
