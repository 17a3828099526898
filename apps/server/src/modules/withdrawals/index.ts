import type { FastifyInstance } from 'fastify';
import { onPayoutUpdate } from '../../adapters/payments/index.ts';
import type { AppContext } from '../../context.ts';
import { SecretBox } from '../../lib/secret-box.ts';
import { AttemptLimiter } from '../auth/index.ts';
import { TWO_FACTOR_FAILURES_PER_ACCOUNT } from '../auth/limits.ts';
import { PayoutProcessor } from './processor.ts';
import { withdrawalRoutes } from './routes.ts';
import type { WithdrawalDeps } from './service.ts';

const processors = new WeakMap<AppContext, PayoutProcessor>();

/** The server's payout processor (tests drive its poll and wait for it to be idle). */
export const payoutProcessorOf = (context: AppContext): PayoutProcessor | undefined => processors.get(context);

/**
 * Money going out: withdrawals and mass payouts, held from request to completion, sent through
 * the payment provider by one payout processor per server (started when the server is ready, so a
 * withdrawal recorded before a restart is sent then), and completed or failed by the provider's
 * updates (webhooks through the payments module, and a poll of the payouts in flight).
 */
export function withdrawalsModule(app: FastifyInstance, context: AppContext): void {
  let processor: PayoutProcessor | null = null;
  const deps: WithdrawalDeps = {
    context,
    db: context.db,
    pubsub: context.pubsub,
    log: context.log,
    clock: context.clock,
    secretBox: new SecretBox(context.secrets.dataKey),
    twoFactorLimiter: new AttemptLimiter(TWO_FACTOR_FAILURES_PER_ACCOUNT, context.clock),
    kick: () => processor?.kick(),
  };
  processor = new PayoutProcessor(deps);
  const started = processor;
  processors.set(context, started);
  // The webhook is answered only once this resolves: a failure makes the provider send it again.
  onPayoutUpdate(context, (payout) => started.applyUpdate(payout));
  app.addHook('onReady', async () => {
    started.start();
  });
  app.addHook('onClose', async () => {
    await started.stop();
  });
  withdrawalRoutes(app, context, deps, started);
}
