import type { AppContext, ModuleParts } from '../../context.ts';
import type { KeysetPage } from '../../lib/keyset.ts';
import type { Markets } from '../markets/index.ts';
import type { Trading } from '../trading/index.ts';
import type { ConversionDeps } from './deps.ts';
import { limitsFromConfig } from './exposure.ts';
import { type ConversionRecord, conversionsPage } from './history-page.ts';
import { liveMarketView } from './market-view.ts';
import { conversionRoutes } from './routes.ts';

export type { ConversionRecord } from './history-page.ts';

/** The conversions desk's routes, and the account's conversion history for other modules. */
export type Conversions = ModuleParts & {
  /** The account's conversions and quick trades, oldest first, in keyset pages (the exports). */
  conversionsPage: KeysetPage<ConversionRecord>;
};

export type ConversionsUses = {
  markets: Pick<Markets, 'referenceQuote'>;
  trading: Pick<Trading, 'exchange'>;
};

/**
 * Conversions between currencies and quick trades: the house desk prices them at the reference
 * price (never from users' orders) with a disclosed spread, within per-minute exposure limits, and
 * settles each in one balanced ledger entry.
 */
export function createConversions(context: AppContext, { markets, trading }: ConversionsUses): Conversions {
  const deps: ConversionDeps = {
    db: context.db,
    clock: context.clock,
    markets: liveMarketView({ exchange: trading.exchange, referenceQuote: markets.referenceQuote }),
    limits: limitsFromConfig(context.config.conversions),
  };
  return {
    routes: (scope) => conversionRoutes(scope, context, deps),
    conversionsPage: (accountId, window, after, limit) => conversionsPage(context.db, accountId, window, after, limit),
  };
}
