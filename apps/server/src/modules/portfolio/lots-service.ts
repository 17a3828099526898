import type { LotMethodName, PortfolioLots, PortfolioRealised } from '@platform/contracts';
import { lots } from '@platform/engine';
import { formatDecimal, toScale } from '@platform/money';
import type { MovementCursor, MovementPage } from '../wallet/index.ts';
import { type HistoricPrice, LOT_ASSET_SCALE, lotHistories } from './ledger-lots.ts';
import type { PriceLookup } from './valuation.ts';

/** What the lot reads use: the wallet's ledger history, recorded prices, live prices. */
export type LotsDeps = {
  movements(accountId: string, after?: MovementCursor): Promise<MovementPage>;
  priceAt: HistoricPrice;
  prices: PriceLookup;
  /** The account's stored lot method: the routes' method when the query has none. */
  method(accountId: string): Promise<LotMethodName>;
};

const usdText = (units: bigint) => formatDecimal({ units, scale: lots.USD_DECIMALS }, { trimZeros: true });
const amountText = (units: bigint) => formatDecimal({ units, scale: LOT_ASSET_SCALE }, { trimZeros: true });
const isoTime = (timeMs: number) => new Date(timeMs).toISOString();

/** A transfer out realises nothing: its lots leave with the coins (docs/portfolio.md). */
const realises = (row: lots.RealisedRow) => row.disposalKind !== 'transfer_out';

/** Every asset's lot result under one method, in asset order. A history the engine refuses is a bug. */
export async function accountLots(
  deps: LotsDeps,
  accountId: string,
  method: lots.LotMethod,
  realisedRows: boolean,
): Promise<lots.LotResult[]> {
  const histories = await lotHistories((await deps.movements(accountId)).movements, deps.priceAt);
  const results: lots.LotResult[] = [];
  for (const asset of [...histories.keys()].sort()) {
    const events = histories.get(asset) ?? [];
    const result = lots.computeLots({ asset, scale: LOT_ASSET_SCALE, events }, { method, realisedRows });
    if (!result.ok) throw new Error(`lots of ${asset}: ${result.reason}: ${result.message}`);
    results.push(result);
  }
  return results;
}

/** The live USD price in the lot engine's units (10^-8 USD per whole unit), or null. */
function livePriceUnits(prices: PriceLookup, asset: string): bigint | null {
  const price = prices(asset)?.price;
  return price === undefined ? null : toScale(price, lots.USD_DECIMALS, 'down').units;
}

/** GET /v1/portfolio/lots: one asset's open lots valued at the live price, and its totals. */
export async function assetLots(
  deps: LotsDeps,
  accountId: string,
  asset: string,
  method: lots.LotMethod,
): Promise<PortfolioLots> {
  const all = await accountLots(deps, accountId, method, true);
  const result = all.find((entry) => entry.asset === asset);
  const openLots = result?.openLots ?? [];
  const price = livePriceUnits(deps.prices, asset);
  const valued = price === null ? null : lots.valueOpenLots(openLots, LOT_ASSET_SCALE, price);
  const average = lots.averageCostUsd(openLots, LOT_ASSET_SCALE);
  const realised = (result?.realised ?? []).filter(realises).reduce((total, row) => total + row.gainUsd, 0n);
  const totals = result?.totals;
  return {
    asset,
    method,
    price: price === null ? null : usdText(price),
    lots: openLots.map((lot, index) => {
      const value = valued?.lots[index];
      return {
        lot_id: lot.lotId,
        kind: lot.kind,
        acquired_at: isoTime(lot.acquiredTimeMs),
        original_amount: amountText(lot.amount),
        amount: amountText(lot.remainingAmount),
        cost: usdText(lot.remainingCostUsd),
        cost_per_unit: usdText((lot.remainingCostUsd * 10n ** BigInt(LOT_ASSET_SCALE)) / lot.remainingAmount),
        value: value === undefined ? null : usdText(value.valueUsd),
        unrealised_pnl: value === undefined ? null : usdText(value.unrealisedUsd),
      };
    }),
    totals: {
      amount: amountText(totals?.openAmount ?? 0n),
      cost: usdText(totals?.openCostUsd ?? 0n),
      average_cost: average === null ? null : usdText(average),
      value: valued ? usdText(valued.valueUsd) : null,
      unrealised_pnl: valued ? usdText(valued.unrealisedUsd) : null,
      realised_pnl: usdText(realised),
      uncovered_amount: amountText(totals?.uncoveredAmount ?? 0n),
    },
  };
}

/** The realised rows of one tax year (calendar, UTC) over every asset; transfers out left out. */
export async function taxYearRows(
  deps: LotsDeps,
  accountId: string,
  year: number,
  method: lots.LotMethod,
): Promise<lots.TaxYearReport | null> {
  const results = await accountLots(deps, accountId, method, true);
  const realising = results.map((result) => ({ ...result, realised: result.realised.filter(realises) }));
  return lots.realisedByTaxYear(realising).find((report) => report.taxYear === year) ?? null;
}

/** GET /v1/portfolio/realised. */
export async function realisedReport(
  deps: LotsDeps,
  accountId: string,
  year: number,
  method: lots.LotMethod,
): Promise<PortfolioRealised> {
  const report = await taxYearRows(deps, accountId, year, method);
  const totals = report?.totals;
  return {
    year,
    method,
    rows: (report?.rows ?? []).map((row) => ({
      asset: row.asset,
      disposal_id: row.disposalId,
      disposal_kind: row.disposalKind,
      lot_id: row.lotId,
      acquisition_kind: row.acquisitionKind,
      acquired_at: row.acquiredTimeMs === null ? null : isoTime(row.acquiredTimeMs),
      sold_at: isoTime(row.soldTimeMs),
      amount: amountText(row.amount),
      proceeds: usdText(row.proceedsUsd),
      cost: usdText(row.costUsd),
      fee: usdText(row.feeUsd),
      gain: usdText(row.gainUsd),
    })),
    totals: {
      rows: totals?.rows ?? 0,
      proceeds: usdText(totals?.proceedsUsd ?? 0n),
      cost: usdText(totals?.costUsd ?? 0n),
      fee: usdText(totals?.feeUsd ?? 0n),
      gain: usdText(totals?.gainUsd ?? 0n),
    },
  };
}

/** GET /v1/portfolio/tax-report.csv: the year's rows as CSV records, each ending with CRLF. */
export async function* taxReportCsv(
  deps: LotsDeps,
  accountId: string,
  year: number,
  method: lots.LotMethod,
): AsyncGenerator<string, void, undefined> {
  const report = await taxYearRows(deps, accountId, year, method);
  for (const record of lots.taxReportCsvRecords(report?.rows ?? [])) yield `${record}${lots.CSV_RECORD_SEPARATOR}`;
}
