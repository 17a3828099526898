import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { walletRoutes } from './routes.ts';
import { TransferSettler, type WalletDeps } from './transfers.ts';

/**
 * The custodial wallet: balances and history from the ledger, and transfers between users. A
 * transfer held before a restart is settled when the server is ready.
 */
export function walletModule(app: FastifyInstance, context: AppContext): void {
  const deps: WalletDeps = {
    db: context.db,
    pubsub: context.pubsub,
    log: context.log,
    clock: context.clock,
  };
  const settler = new TransferSettler(deps);
  app.addHook('onReady', async () => {
    settler.kick();
  });
  app.addHook('onClose', async () => {
    await settler.stop();
  });
  walletRoutes(app, context, deps, settler);
}
