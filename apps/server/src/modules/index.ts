import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { realtimeModule } from '../realtime/routes.ts';
import { accountsModule } from './accounts/routes.ts';
import { authModule } from './auth/index.ts';
import { healthRoutes } from './health/routes.ts';
import { marketsModule } from './markets/index.ts';
import { notificationsModule } from './notifications/index.ts';
import { providerModule } from './provider/routes.ts';
import { tradingModule } from './trading/index.ts';
import { walletModule } from './wallet/index.ts';
import { watchlistModule } from './watchlist/routes.ts';

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
];
