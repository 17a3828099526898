import clsx from 'clsx';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pairSymbol } from '../../lib/format.ts';
import { readStorage } from '../../lib/safe-storage.ts';
import { useAppStore } from '../../state/app-store.ts';

/** Where the futures screen keeps the last market chosen (read here for the switch's link). */
export const LAST_FUTURES_MARKET_KEY = 'meridian-futures-market';
const FALLBACK_FUTURES_MARKET = 'BTC_USD_PERP';

export type MarketKind = 'spot' | 'futures';

/**
 * Spot / Futures over the trade screen: two links, so the address says which market type is shown
 * (/trade?pair=BTC/USD, /trade/futures/BTC_USD_PERP) and each side returns to its last market.
 */
export function MarketKindSwitch({ current }: { current: MarketKind }) {
  const { t } = useTranslation();
  const storedPair = useAppStore((state) => state.selectedTradingPair);
  const spotHref = storedPair ? `/trade?pair=${pairSymbol(storedPair.replace('/', '_'))}` : '/trade';
  const futuresMarket = readStorage(LAST_FUTURES_MARKET_KEY) ?? FALLBACK_FUTURES_MARKET;
  const links: Record<MarketKind, string> = { spot: spotHref, futures: `/trade/futures/${futuresMarket}` };
  return (
    <nav className="market-kind-switch segmented" aria-label={t('trade.kind.label')} data-testid="market-kind-switch">
      {(['spot', 'futures'] as const).map((kind) => (
        <Link
          key={kind}
          to={links[kind]}
          className={clsx('segment', current === kind && 'active')}
          aria-current={current === kind ? 'page' : undefined}
          data-testid={`market-kind-${kind}`}
        >
          {t(`trade.kind.${kind}`)}
        </Link>
      ))}
    </nav>
  );
}
