import { tradePathForPair } from '@platform/contracts';
import { Link } from 'react-router';
import type { LivePair } from '../market-data/index.ts';
import { CoinIcon } from './coin-icon.tsx';
import { ChangeText, LivePrice } from './live-values.tsx';
import { coinName } from './markets-model.ts';

/** A compact list of markets (home cards): coin, live price and change; each opens the trade page. */
export function MarketList({ pairs, testId, empty }: { pairs: readonly LivePair[]; testId: string; empty: string }) {
  if (pairs.length === 0) {
    return (
      <p className="market-list-empty muted" data-testid={testId}>
        {empty}
      </p>
    );
  }
  return (
    <ol className="market-list" data-testid={testId}>
      {pairs.map((pair) => (
        <li key={pair.id}>
          <Link className="market-list-item" to={tradePathForPair(pair.baseCurrency, pair.quoteCurrency)}>
            <CoinIcon symbol={pair.baseCurrency} size={26} />
            <span className="pair-text">
              <span className="pair-symbol">
                {pair.baseCurrency}
                <span className="pair-quote">/{pair.quoteCurrency}</span>
              </span>
              <span className="pair-name-small">{coinName(pair.baseCurrency)}</span>
            </span>
            <span className="market-list-values">
              <LivePrice price={pair.price} quoteCurrency={pair.quoteCurrency} />
              <ChangeText value={pair.changePercent24h} />
            </span>
          </Link>
        </li>
      ))}
    </ol>
  );
}
