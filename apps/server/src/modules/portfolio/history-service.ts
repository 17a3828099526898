import {
  PORTFOLIO_HISTORY_GRANULARITY,
  PORTFOLIO_HISTORY_MAX_POINTS,
  PORTFOLIO_HISTORY_RANGE_MS,
  type PortfolioHistory,
  type PortfolioHistoryRange,
} from '@platform/contracts';
import { decimal, sub } from '@platform/money';
import type { Queryable } from '../../db/database.ts';
import type { Wallet } from '../wallet/index.ts';
import { FlowPricer } from './flow-prices.ts';
import { type PortfolioDeps, portfolioSummary } from './service.ts';
import { accountSnapshots, bucketMs } from './snapshots.ts';
import { text } from './valuation.ts';

export type HistoryDeps = {
  db: Queryable;
  summary: PortfolioDeps;
  wallet: Pick<Wallet, 'flows'>;
  priceAt: (currency: string, timeMs: number) => Promise<string | null>;
};

const canonical = (value: string) => text(decimal(value));

/**
 * GET /v1/portfolio/history: the account's snapshots of the range's granularity from now minus the
 * range (the newest PORTFOLIO_HISTORY_MAX_POINTS), oldest first, then the live point: the
 * summary's total now, with the flows since the last snapshot (or, with none, over the bucket
 * before now) valued as the recorder values them.
 */
export async function portfolioHistory(
  deps: HistoryDeps,
  accountId: string,
  range: PortfolioHistoryRange,
): Promise<PortfolioHistory> {
  const granularity = PORTFOLIO_HISTORY_GRANULARITY[range];
  const span = PORTFOLIO_HISTORY_RANGE_MS[range];
  const nowMs = deps.summary.clock().getTime();
  const stored = await accountSnapshots(deps.db, {
    accountId,
    granularity,
    fromMs: span === null ? null : nowMs - span,
    limit: PORTFOLIO_HISTORY_MAX_POINTS,
  });
  const summary = await portfolioSummary(deps.summary, accountId);
  const liveMs = Math.max(summary.timestamp, (stored.at(-1)?.atMs ?? 0) + 1);
  const flowsFromMs = stored.at(-1)?.atMs ?? liveMs - bucketMs(granularity);
  const flows = await deps.wallet.flows([accountId], flowsFromMs, liveMs);
  const pricer = new FlowPricer(deps.priceAt, (currency) => deps.summary.prices(currency)?.price);
  const liveFlow = await pricer.total(flows);
  const points = stored.map((row) => ({
    at: new Date(row.atMs).toISOString(),
    total_value: canonical(row.totalValue),
    spot_value: canonical(row.spotValue),
    futures_equity: canonical(row.futuresEquity),
    net_flow: canonical(row.netFlow),
    live: false,
  }));
  points.push({
    at: new Date(liveMs).toISOString(),
    total_value: summary.total_value,
    spot_value: text(sub(decimal(summary.total_value), decimal(summary.futures.equity))),
    futures_equity: summary.futures.equity,
    net_flow: text(liveFlow),
    live: true,
  });
  return { currency: 'USD', range, granularity, points };
}
