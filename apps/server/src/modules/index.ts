import type { FastifyInstance } from 'fastify';
import { paymentProviderModule } from '../adapters/payments/module.ts';
import type { AppContext } from '../context.ts';
import { realtimeModule } from '../realtime/routes.ts';
import { accountsModule } from './accounts/routes.ts';
import { authModule } from './auth/index.ts';
import { conversionsModule } from './conversions/index.ts';
import { healthRoutes } from './health/routes.ts';
import { kycModule } from './kyc/index.ts';
import { marketsModule } from './markets/index.ts';
import { notificationsModule } from './notifications/index.ts';
import { paymentsModule } from './payments/index.ts';
import { providerModule } from './provider/routes.ts';
import { tradingModule } from './trading/index.ts';
import { walletModule } from './wallet/index.ts';
import { watchlistModule } from './watchlist/routes.ts';
import { withdrawalsModule } from './withdrawals/index.ts';

/** A feature module: registers its routes (and hooks) given the shared context. */
export type ModuleRegistrar = (app: FastifyInstance, context: AppContext) => Promise<void> | void;

/** Every feature module, in registration order. */
export const modules: ModuleRegistrar[] = [
  healthRoutes,
  authModule,
  accountsModule,
  marketsModule,
  providerModule,
  tradingModule,
  realtimeModule,
  watchlistModule,
  notificationsModule,
  walletModule,
  paymentProviderModule,
  kycModule,
  paymentsModule,
  withdrawalsModule,
  conversionsModule,
];
