import type { PaymentGateway } from '../../adapters/payments/index.ts';
import type { AppContext, ModuleParts } from '../../context.ts';
import type { KeysetPage } from '../../lib/keyset.ts';
import type { Markets } from '../markets/index.ts';
import type { InsertNotifications } from '../notifications/index.ts';
import { ChainConfirmer, SandboxChain } from './chain.ts';
import type { PaymentsDeps } from './credit.ts';
import { DepositAddresses } from './deposit-addresses.ts';
import { type DepositRecord, depositsPage } from './deposit-pages.ts';
import { PaymentsService } from './payments.ts';
import { Reconciler } from './reconciler.ts';
import { facadePaymentRoutes, sandboxChainRoutes, walletDepositRoutes, webhookRoutes } from './routes.ts';

/**
 * Money coming in (docs/payments.md): deposit addresses and the deposits seen on them, checkout
 * deposits, the facade's payments and Lightning invoices, the provider's webhooks, and the two
 * workers (chain confirmations, payment reconciliation), which stop when the server closes.
 */

/** Looks per confirmation time: a deposit is seen confirmed within a tenth of that time of its due moment. */
const CONFIRM_LOOKS_PER_DELAY = 10;
/** At least this long between looks: tests confirm in milliseconds, and a tighter loop only burns CPU. */
const MIN_CONFIRM_INTERVAL_MS = 50;
/** At most this long between looks: a confirmation never waits more than a second to be seen. */
const MAX_CONFIRM_INTERVAL_MS = 1_000;

/** How often the sandbox chain's confirmations are looked at: a tenth of the confirmation time, within bounds. */
function confirmIntervalMs(confirmDelayMs: number): number {
  const interval = Math.floor(confirmDelayMs / CONFIRM_LOOKS_PER_DELAY);
  return Math.min(MAX_CONFIRM_INTERVAL_MS, Math.max(MIN_CONFIRM_INTERVAL_MS, interval));
}

export type { DepositRecord } from './deposit-pages.ts';

/** The module's parts (tests drive a worker pass by hand). */
export type Payments = ModuleParts & {
  service: PaymentsService;
  confirmer: ChainConfirmer | null;
  reconciler: Reconciler;
  addresses: DepositAddresses;
  /** The account's deposits (address and provider payments), oldest first, in keyset pages (the exports). */
  depositsPage: KeysetPage<DepositRecord>;
};

export type PaymentsUses = {
  markets: Pick<Markets, 'feed'>;
  gateway: PaymentGateway;
  /** Stores the deposit notifications (the notifications module's). */
  insertNotifications: InsertNotifications;
};

export function createPayments(context: AppContext, { markets, gateway, insertNotifications }: PaymentsUses): Payments {
  const deps: PaymentsDeps = {
    db: context.db,
    pubsub: context.pubsub,
    log: context.log,
    clock: context.clock,
    insertNotifications,
  };
  const service = new PaymentsService(deps, gateway, markets.feed);
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

  return {
    service,
    confirmer,
    reconciler,
    addresses,
    depositsPage: (accountId, window, after, limit) =>
      depositsPage(context.db, context.clock(), accountId, window, after, limit),
    routes: async (scope) => {
      walletDepositRoutes(scope, context, service, addresses);
      facadePaymentRoutes(scope, context, service);
      if (sandbox) sandboxChainRoutes(scope, service);
      await webhookRoutes(scope, context, service);
    },
    start: () => {
      confirmer?.start();
      reconciler.start();
    },
    stop: async () => {
      await confirmer?.stop();
      await reconciler.stop();
    },
  };
}
