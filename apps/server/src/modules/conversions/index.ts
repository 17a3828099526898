import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { tradingOf } from '../trading/index.ts';
import { contextMarketView } from './market-view.ts';
import { conversionRoutes } from './routes.ts';
import type { ConversionDeps } from './service.ts';

/**
 * Conversions between currencies and quick trades: the house desk prices them from the live spot
 * books (the reference price when a book cannot fill the amount) with a disclosed spread, and
 * settles each in one balanced ledger entry.
 */
export function conversionsModule(app: FastifyInstance, context: AppContext): void {
  const deps: ConversionDeps = {
    db: context.db,
    clock: context.clock,
    markets: contextMarketView(context),
    balancesMoved: (accountId, currencies) => tradingOf(context)?.balancesMoved?.(accountId, currencies),
  };
  conversionRoutes(app, context, deps);
}
