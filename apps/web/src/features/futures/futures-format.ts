import type { FuturesMarket } from '@platform/contracts';
import { formatDecimal, mul, toScale } from '@platform/money';
import { formatPercent, groupThousands, MISSING_VALUE, toAmount } from '../../lib/format.ts';
import { formatCurrencyAmount, formatTickPrice } from '../../lib/number-format.ts';
import { localizedNumber } from '../../state/preferences-store.ts';

/**
 * The futures screen's figures at their precision: prices at the market's tick decimals, sizes at
 * its lot decimals, USD at 2 decimals, rates as percentages. Exact (@platform/money); rounding is
 * for display only.
 */

/** Decimals of a step: '0.10' -> 1, '0.001' -> 3, '1' -> 0. */
export function stepDecimals(step: string): number {
  const amount = toAmount(step);
  if (!amount) return 0;
  const text = formatDecimal(amount);
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.slice(dot + 1).replace(/0+$/, '').length;
}

export interface MarketPrecision {
  price: number;
  size: number;
}

export function marketPrecision(market: Pick<FuturesMarket, 'tick_size' | 'lot_size'> | undefined): MarketPrecision {
  if (!market) return { price: 2, size: 3 };
  return { price: stepDecimals(market.tick_size), size: stepDecimals(market.lot_size) };
}

export function formatFuturesPrice(value: string | null | undefined, decimals: number): string {
  if (value === null || value === undefined) return MISSING_VALUE;
  return formatTickPrice(value, decimals);
}

export function formatSize(value: string | null | undefined, decimals: number): string {
  const amount = value ? toAmount(value) : null;
  return amount ? groupThousands(formatDecimal(toScale(amount, decimals, 'half_up'))) : MISSING_VALUE;
}

/** '1,234.50' with a '-' for a loss; money from the API is exact text, rounded here for display. */
export function formatUsd(value: string | null | undefined): string {
  const amount = value ? toAmount(value) : null;
  if (!amount) return MISSING_VALUE;
  return groupThousands(formatDecimal(toScale(amount, 2, 'half_up')));
}

/** The same with an explicit '+' for a gain (P&L columns). */
export function formatSignedUsd(value: string | null | undefined): string {
  const text = formatUsd(value);
  return text !== MISSING_VALUE && !text.startsWith('-') && !/^0\.00$/.test(text) ? `+${text}` : text;
}

/** A decimal fraction as a percentage: '0.0001' -> '0.0100%'. */
export function formatRatePercent(value: string | null | undefined, decimals = 4): string {
  const amount = value ? toAmount(value) : null;
  if (!amount) return MISSING_VALUE;
  return `${localizedNumber(formatDecimal(toScale(mul(amount, { units: 100n, scale: 0 }), decimals, 'half_up')))}%`;
}

/** '+1.25%' from a percent figure as the API sends it ('1.25'). */
export function formatChangePercent(value: string | null | undefined): string {
  return value && toAmount(value) ? formatPercent(value) : MISSING_VALUE;
}

/** A plain USD figure for the few labels that show it with its unit. */
export function formatUsdMoney(value: string | null | undefined): string {
  return formatCurrencyAmount(value, 'USD');
}

/** 'hh:mm:ss' until a time (the funding countdown); '00:00:00' once it has passed. */
export function countdown(targetMs: number, nowMs: number): string {
  const total = Math.max(0, Math.floor((targetMs - nowMs) / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return [hours, minutes, seconds].map((part) => String(part).padStart(2, '0')).join(':');
}

/** BTC_USD_PERP -> 'BTC'. */
export function marketBase(marketId: string): string {
  return marketId.split('_')[0] ?? marketId;
}

/** BTC_USD_PERP -> 'BTCUSD Perp' when the market list has not loaded. */
export function marketLabel(marketId: string, market?: Pick<FuturesMarket, 'symbol'>): string {
  return market?.symbol ?? `${marketBase(marketId)}USD-PERP`;
}
