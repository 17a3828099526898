import type { AppContext, ModuleParts } from '../../context.ts';
import type { Markets } from '../markets/index.ts';
import type { Trading } from '../trading/index.ts';
import type { ConversionDeps } from './deps.ts';
import { limitsFromConfig } from './exposure.ts';
import { liveMarketView } from './market-view.ts';
import { conversionRoutes } from './routes.ts';

export type ConversionsUses = {
  markets: Pick<Markets, 'referenceQuote'>;
  trading: Pick<Trading, 'exchange'>;
};

/**
 * Conversions between currencies and quick trades: the house desk prices them at the reference
 * price (never from users' orders) with a disclosed spread, within per-minute exposure limits, and
 * settles each in one balanced ledger entry.
 */
export function createConversions(context: AppContext, { markets, trading }: ConversionsUses): ModuleParts {
  const deps: ConversionDeps = {
    db: context.db,
    clock: context.clock,
    markets: liveMarketView({ exchange: trading.exchange, referenceQuote: markets.referenceQuote }),
    limits: limitsFromConfig(context.config.conversions),
  };
  return { routes: (scope) => conversionRoutes(scope, context, deps) };
}
