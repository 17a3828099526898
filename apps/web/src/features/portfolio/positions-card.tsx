import type { FuturesMarket, PortfolioPosition, PortfolioSummary } from '@platform/contracts';
import clsx from 'clsx';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  formatFuturesPrice,
  formatRatePercent,
  formatSize,
  marketLabel,
  marketPrecision,
} from '../futures/futures-format.ts';
import { useFuturesMarkets } from '../futures/futures-queries.ts';
import { ratioWidthPercent, riskLevel } from '../futures/position-maths.ts';
import { formatShare, formatUsdValue, futuresHref, toneOf } from './portfolio-model.ts';

const COLUMNS = ['market', 'side', 'size', 'mark', 'liquidation', 'marginRatio', 'distance', 'pnl'] as const;
type Column = (typeof COLUMNS)[number];

/** The open futures positions with their risk: margin ratio and how far the mark is from liquidation. */
export function PositionsCard({ futures }: { futures: PortfolioSummary['futures'] }) {
  const { t } = useTranslation();
  const markets = useFuturesMarkets().data ?? [];
  return (
    <section
      className="wallet-card pf-positions"
      aria-labelledby="pf-positions-title"
      data-testid="portfolio-positions"
    >
      <header className="wallet-card-header">
        <div>
          <h2 id="pf-positions-title" className="wallet-card-title">
            {t('portfolio.positions.title')}
          </h2>
          <p className="wallet-card-description">
            {t('portfolio.positions.description', {
              wallet: formatUsdValue(futures.wallet_balance),
              pnl: formatUsdValue(futures.unrealised_pnl, { signed: true }),
            })}
          </p>
        </div>
      </header>
      <div className="pf-table-wrap">
        <table className="pf-table pf-positions-table" data-testid="portfolio-positions-table">
          <thead>
            <tr>
              {COLUMNS.map((column) => (
                <th key={column} scope="col" className={clsx(column !== 'market' && column !== 'side' && 'num')}>
                  {t(`portfolio.positions.${column}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {futures.positions.map((position) => (
              <PositionRow
                key={position.market}
                position={position}
                market={markets.find((m) => m.id === position.market)}
              />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function PositionRow({ position, market }: { position: PortfolioPosition; market: FuturesMarket | undefined }) {
  const { t } = useTranslation();
  const precision = marketPrecision(market);
  const label = (column: Column) => t(`portfolio.positions.${column}`);
  const testId = (name: string) => `portfolio-position-${position.market}-${name}`;
  const name = marketLabel(position.market, market);
  return (
    <tr data-testid={`portfolio-position-${position.market}`}>
      <th scope="row" data-label={label('market')}>
        <Link
          to={futuresHref(position.market)}
          className="pf-market-link"
          aria-label={t('portfolio.positions.open', { market: name })}
          data-testid={testId('link')}
        >
          {name}
        </Link>
      </th>
      <td data-label={label('side')}>
        <span className={clsx('pf-side', position.side === 'long' ? 'up' : 'down')}>
          {t(`portfolio.positions.${position.side}`)}
        </span>
      </td>
      <td className="num tabular" data-label={label('size')} data-testid={testId('size')}>
        {formatSize(position.size, precision.size)}
      </td>
      <td className="num tabular" data-label={label('mark')} data-testid={testId('mark')}>
        {formatFuturesPrice(position.mark_price, precision.price)}
      </td>
      <td className="num tabular pf-liq" data-label={label('liquidation')} data-testid={testId('liquidation')}>
        {formatFuturesPrice(position.liquidation_price, precision.price)}
      </td>
      <td className="num" data-label={label('marginRatio')}>
        <RatioBar ratio={position.margin_ratio} testId={testId('ratio')} />
      </td>
      <td className="num tabular" data-label={label('distance')} data-testid={testId('distance')}>
        {formatShare(position.distance_to_liquidation_percent)}
      </td>
      <td
        className={clsx('num tabular', toneOf(position.unrealised_pnl))}
        data-label={label('pnl')}
        data-testid={testId('pnl')}
      >
        {formatUsdValue(position.unrealised_pnl, { signed: true })}
      </td>
    </tr>
  );
}

/** Maintenance / margin balance as a bar (liquidation at 100 %), coloured by the futures screen's risk levels. */
function RatioBar({ ratio, testId }: { ratio: string; testId: string }) {
  const { t } = useTranslation();
  const level = riskLevel(ratio);
  return (
    <span className={clsx('pf-ratio', `pf-risk-${level}`)} data-testid={testId} data-risk={level}>
      <span className="pf-ratio-track" aria-hidden="true">
        <span className="pf-ratio-fill" style={{ width: `${ratioWidthPercent(ratio)}%` }} />
      </span>
      <span className="tabular">{formatRatePercent(ratio, 2)}</span>
      <span className="visually-hidden">{t(`portfolio.positions.risk.${level}`)}</span>
    </span>
  );
}
