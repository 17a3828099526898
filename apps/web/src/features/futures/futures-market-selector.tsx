import type { FuturesMarket } from '@platform/contracts';
import { ChevronDown } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/ui/modal.tsx';
import { formatChangePercent, formatFuturesPrice, marketLabel, marketPrecision } from './futures-format.ts';
import { useFuturesMarkets } from './futures-queries.ts';

interface SelectorProps {
  marketId: string;
  market: FuturesMarket | undefined;
  onSelect: (marketId: string) => void;
}

/** The futures side of the pair selector: the perpetual markets, searchable, with mark and change. */
export function FuturesMarketSelector({ marketId, market, onSelect }: SelectorProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const label = marketLabel(marketId, market);
  return (
    <>
      <button
        type="button"
        className="pair-selector-button fut-selector-trigger"
        aria-haspopup="dialog"
        aria-label={t('futures.selector.open', { market: label })}
        onClick={() => setOpen(true)}
        data-testid="futures-market-selector"
      >
        <span className="pair-selector-symbol">{label}</span>
        <ChevronDown size={16} aria-hidden="true" />
      </button>
      {open ? (
        <MarketList
          onClose={() => setOpen(false)}
          onPick={(id) => {
            setOpen(false);
            onSelect(id);
          }}
        />
      ) : null}
    </>
  );
}

function MarketList({ onClose, onPick }: { onClose: () => void; onPick: (id: string) => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const markets = useFuturesMarkets().data ?? [];
  const [search, setSearch] = useState('');
  const shown = useMemo(() => {
    const needle = search.trim().toUpperCase();
    return needle ? markets.filter((market) => market.id.includes(needle) || market.symbol.includes(needle)) : markets;
  }, [markets, search]);
  return (
    <Modal open onClose={onClose} labelledBy={titleId} maxWidthPx={480} testId="futures-market-list">
      <h2 id={titleId} className="fut-dialog-title">
        {t('futures.selector.dialog')}
      </h2>
      <input
        className="input"
        type="search"
        aria-label={t('futures.selector.search')}
        placeholder={t('futures.selector.search')}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      {shown.length === 0 ? <p className="fut-empty">{t('futures.selector.empty')}</p> : null}
      <ul className="fut-market-list">
        {shown.map((market) => (
          <li key={market.id}>
            <button type="button" onClick={() => onPick(market.id)} data-testid={`futures-market-${market.id}`}>
              <span className="fut-market-symbol">{market.symbol}</span>
              <span className="fut-badge">{market.max_leverage}x</span>
              <span className="tabular">{formatFuturesPrice(market.mark_price, marketPrecision(market).price)}</span>
              <span className="tabular">{formatChangePercent(market.price_change_percent_24h)}</span>
            </button>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
