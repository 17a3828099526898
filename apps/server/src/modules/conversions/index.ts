import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { limitsFromConfig } from './exposure.ts';
import { contextMarketView } from './market-view.ts';
import { conversionRoutes } from './routes.ts';
import type { ConversionDeps } from './service.ts';

/**
 * Conversions between currencies and quick trades: the house desk prices them at the reference
 * price (never from users' orders) with a disclosed spread, within per-minute exposure limits, and
 * settles each in one balanced ledger entry.
 */
export function conversionsModule(app: FastifyInstance, context: AppContext): void {
  const deps: ConversionDeps = {
    db: context.db,
    clock: context.clock,
    markets: contextMarketView(context),
    limits: limitsFromConfig(context.config.conversions),
  };
  conversionRoutes(app, context, deps);
}
