import type { Analytics, AnalyticsTrade } from '@platform/contracts';
import clsx from 'clsx';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { assetBars, assetLabel, formatPercentFigure, formatRatio, formatUsd, toneOfFigure } from './analytics-model.ts';
import { EquityChart } from './equity-chart.tsx';

interface Tile {
  key: string;
  label: string;
  value: string;
  tone?: 'up' | 'down' | undefined;
  detail?: string;
  hint?: string;
}

const isZeroFigure = (figure: string) => /^-?0(\.0*)?$/.test(figure);

/** Liquidation costs and what the insurance fund bore: shown only in a period that had them. */
function liquidationTiles(analytics: Analytics, t: TFunction): Tile[] {
  const tiles: Tile[] = [];
  if (!isZeroFigure(analytics.liquidation_fees)) {
    tiles.push({
      key: 'liquidation-fees',
      label: t('analytics.tiles.liquidationFees'),
      value: formatUsd(analytics.liquidation_fees),
      hint: t('analytics.tiles.liquidationFeesHint'),
    });
  }
  if (!isZeroFigure(analytics.insurance_cleared)) {
    tiles.push({
      key: 'insurance-cleared',
      label: t('analytics.tiles.insuranceCleared'),
      value: formatUsd(analytics.insurance_cleared),
      hint: t('analytics.tiles.insuranceClearedHint'),
    });
  }
  return tiles;
}

function tilesOf(analytics: Analytics, t: TFunction): Tile[] {
  return [
    {
      key: 'pnl',
      label: t('analytics.tiles.pnl'),
      value: formatUsd(analytics.realised_pnl, true),
      tone: toneOfFigure(analytics.realised_pnl),
      hint: t('analytics.tiles.pnlHint'),
    },
    {
      key: 'win-rate',
      label: t('analytics.tiles.winRate'),
      value: formatPercentFigure(analytics.win_rate_percent),
      detail: t('analytics.tiles.winRateDetail', { wins: analytics.winning_trades, closed: analytics.closed_trades }),
    },
    {
      key: 'profit-factor',
      label: t('analytics.tiles.profitFactor'),
      value: formatRatio(analytics.profit_factor),
      hint: t('analytics.tiles.profitFactorHint'),
    },
    { key: 'volume', label: t('analytics.tiles.volume'), value: formatUsd(analytics.volume) },
    {
      key: 'trades',
      label: t('analytics.tiles.trades'),
      value: String(analytics.trades),
      detail: t('analytics.tiles.tradesDetail', { closed: analytics.closed_trades }),
    },
    { key: 'fees', label: t('analytics.tiles.fees'), value: formatUsd(analytics.fees_paid) },
    ...liquidationTiles(analytics, t),
    { key: 'funding-paid', label: t('analytics.tiles.fundingPaid'), value: formatUsd(analytics.funding_paid) },
    {
      key: 'funding-received',
      label: t('analytics.tiles.fundingReceived'),
      value: formatUsd(analytics.funding_received),
    },
    { key: 'average-win', label: t('analytics.tiles.averageWin'), value: formatUsd(analytics.average_win), tone: 'up' },
    {
      key: 'average-loss',
      label: t('analytics.tiles.averageLoss'),
      value: formatUsd(analytics.average_loss),
      tone: 'down',
    },
  ];
}

/** The period's figures as tiles, each the API's exact decimal at USD precision. */
export function StatTiles({ analytics }: { analytics: Analytics }) {
  const { t } = useTranslation();
  return (
    <dl className="an-tiles" aria-label={t('analytics.tiles.label')} data-testid="analytics-tiles">
      {tilesOf(analytics, t).map((tile) => (
        <div key={tile.key} className="an-tile" title={tile.hint}>
          <dt>{tile.label}</dt>
          <dd
            className={clsx('an-tile-value tabular', tile.value !== '—' && tile.tone)}
            data-testid={`analytics-tile-${tile.key}`}
          >
            {tile.value}
          </dd>
          {tile.detail ? <dd className="an-tile-detail muted">{tile.detail}</dd> : null}
        </div>
      ))}
    </dl>
  );
}

/** The TWR curve with its drawdown, and the two figures. */
export function EquityCard({ analytics }: { analytics: Analytics }) {
  const { t } = useTranslation();
  return (
    <section className="wallet-card an-card" aria-labelledby="an-equity-title">
      <div className="an-card-head">
        <h2 id="an-equity-title" className="wallet-card-title">
          {t('analytics.equity.title')}
        </h2>
        <p className="muted an-card-text">{t('analytics.equity.description')}</p>
      </div>
      <dl className="an-equity-figures">
        <div>
          <dt>{t('analytics.tiles.twr')}</dt>
          <dd
            className={clsx('tabular', toneOfFigure(analytics.time_weighted_return_percent))}
            data-testid="analytics-twr"
          >
            {formatPercentFigure(analytics.time_weighted_return_percent, true)}
          </dd>
        </div>
        <div>
          <dt>{t('analytics.tiles.drawdown')}</dt>
          <dd className="tabular" data-testid="analytics-drawdown">
            {formatPercentFigure(analytics.max_drawdown_percent)}
          </dd>
        </div>
      </dl>
      {analytics.equity.length > 0 ? (
        <EquityChart points={analytics.equity} maxDrawdown={analytics.max_drawdown_percent} />
      ) : (
        <p className="muted" data-testid="analytics-equity-none">
          {t('analytics.equity.none')}
        </p>
      )}
    </section>
  );
}

/** P&L by asset as horizontal bars (length for drawing; the figure is the API's decimal). */
export function AssetBarsCard({ rows }: { rows: Analytics['pnl_by_asset'] }) {
  const { t } = useTranslation();
  const bars = assetBars(rows);
  return (
    <section className="wallet-card an-card" aria-labelledby="an-assets-title">
      <div className="an-card-head">
        <h2 id="an-assets-title" className="wallet-card-title">
          {t('analytics.assets.title')}
        </h2>
        <p className="muted an-card-text">{t('analytics.assets.description')}</p>
      </div>
      {bars.length === 0 ? (
        <p className="muted">{t('analytics.assets.none')}</p>
      ) : (
        <ul className="an-bars" data-testid="analytics-assets">
          {bars.map((bar) => (
            <li key={bar.key} className="an-bar-row" data-testid={`analytics-asset-${bar.key}`}>
              <span className="an-bar-label">
                <strong>{assetLabel(bar.product, bar.asset)}</strong>
                <span className="muted">{t(`analytics.assets.${bar.product}`)}</span>
              </span>
              <span className="an-bar-track" aria-hidden="true">
                <span className={clsx('an-bar', bar.tone)} style={{ width: `${bar.widthPercent}%` }} />
              </span>
              <span className={clsx('an-bar-value tabular', bar.tone)}>{formatUsd(bar.pnl, true)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function TradeRow({ kind, trade }: { kind: 'best' | 'worst'; trade: AnalyticsTrade }) {
  const { t } = useTranslation();
  return (
    <li className="an-trade" data-testid={`analytics-${kind}-trade`}>
      <span className="an-trade-kind muted">{t(`analytics.trades.${kind}`)}</span>
      <strong>{assetLabel(trade.product, trade.asset)}</strong>
      <span className="muted">{t(`analytics.trades.${trade.product}`)}</span>
      <time dateTime={trade.time} className="muted tabular">
        {trade.time.slice(0, 16).replace('T', ' ')} UTC
      </time>
      <span className={clsx('an-trade-pnl tabular', toneOfFigure(trade.pnl))}>{formatUsd(trade.pnl, true)}</span>
    </li>
  );
}

export function TradesCard({ analytics }: { analytics: Analytics }) {
  const { t } = useTranslation();
  const { best_trade: best, worst_trade: worst } = analytics;
  return (
    <section className="wallet-card an-card" aria-labelledby="an-trades-title">
      <h2 id="an-trades-title" className="wallet-card-title">
        {t('analytics.trades.title')}
      </h2>
      {best && worst ? (
        <ul className="an-trades">
          <TradeRow kind="best" trade={best} />
          <TradeRow kind="worst" trade={worst} />
        </ul>
      ) : (
        <p className="muted">{t('analytics.trades.none')}</p>
      )}
    </section>
  );
}
