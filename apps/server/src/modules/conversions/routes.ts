import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import type { ConversionDeps } from './deps.ts';
import { conversionRoute } from './routes/conversion.ts';
import { createRoute } from './routes/create.ts';
import { estimateRoute } from './routes/estimate.ts';
import { historyRoute } from './routes/history.ts';
import { pairsRoute } from './routes/pairs.ts';
import { quickTradeRoute } from './routes/quick-trade.ts';
import { supportedRoute } from './routes/supported.ts';
import { tradeHistoryRoute } from './routes/trade-history.ts';

/** Spec §7.3's conversion and quick-trade calls, one file each. */
export function conversionRoutes(scope: FastifyInstance, context: AppContext, deps: ConversionDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  estimateRoute(app, context, deps);
  pairsRoute(app, deps);
  supportedRoute(app, deps);
  createRoute(app, context, deps);
  historyRoute(app, context, deps);
  conversionRoute(app, context, deps);
  quickTradeRoute(app, context, deps);
  tradeHistoryRoute(app, context, deps);
}
