import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { ChainConfirmer, SandboxChain } from './chain.ts';
import type { PaymentsDeps } from './credit.ts';
import { DepositAddresses } from './deposit-addresses.ts';
import { PaymentsService } from './payments.ts';
import { Reconciler } from './reconciler.ts';
import { facadePaymentRoutes, sandboxChainRoutes, walletDepositRoutes, webhookRoutes } from './routes.ts';

/**
 * Money coming in (docs/payments.md): deposit addresses and the deposits seen on them, checkout
 * deposits, the facade's payments and Lightning invoices, the provider's webhooks, and the two
 * workers (chain confirmations, payment reconciliation), which stop when the server closes.
 */

/** How often the sandbox chain's confirmations are looked at: a tenth of the confirmation time, within bounds. */
function confirmIntervalMs(confirmDelayMs: number): number {
  return Math.min(1_000, Math.max(50, Math.floor(confirmDelayMs / 10)));
}

export type PaymentsModule = {
  service: PaymentsService;
  confirmer: ChainConfirmer | null;
  reconciler: Reconciler;
  addresses: DepositAddresses;
};

const registry = new WeakMap<AppContext, PaymentsModule>();

/** The module's parts, for tests that drive a worker pass by hand. */
export const paymentsOf = (context: AppContext): PaymentsModule | undefined => registry.get(context);

export async function paymentsModule(app: FastifyInstance, context: AppContext): Promise<void> {
  const deps: PaymentsDeps = {
    db: context.db,
    pubsub: context.pubsub,
    log: context.log,
    clock: context.clock,
  };
  const service = new PaymentsService(context, deps);
  const addresses = new DepositAddresses(context);
  const sandbox = context.config.paymentProvider === 'sandbox';
  // A real chain watcher (a node or an indexer) would take the sandbox chain's place here.
  const confirmer = sandbox
    ? new ChainConfirmer(
        deps,
        new SandboxChain(context.config.sandboxConfirmDelayMs),
        confirmIntervalMs(context.config.sandboxConfirmDelayMs),
      )
    : null;
  const reconciler = new Reconciler(service);
  registry.set(context, { service, confirmer, reconciler, addresses });

  walletDepositRoutes(app, context, service, addresses);
  facadePaymentRoutes(app, context, service);
  if (sandbox) sandboxChainRoutes(app, service);
  await webhookRoutes(app, context, service);

  app.addHook('onReady', async () => {
    confirmer?.start();
    reconciler.start();
  });
  app.addHook('onClose', async () => {
    await confirmer?.stop();
    await reconciler.stop();
  });
}
