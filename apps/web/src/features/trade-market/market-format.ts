import type { TradingPair } from '@platform/contracts';
import { type Amount, formatDecimal, toScale } from '@platform/money';
import { groupThousands, toAmount } from '../../lib/format.ts';
import { usePairs } from '../market-data/index.ts';

/** A decimal at a fixed number of decimals, grouped by thousands: '67,202.73', '0.0059479'. */
export function formatFixed(value: Amount, scale: number): string {
  return groupThousands(formatDecimal(toScale(value, scale, 'half_up')));
}

/** The same for a wire string; the string as it is when it is not a decimal. */
export function formatFixedText(value: string, scale: number): string {
  const amount = toAmount(value);
  return amount ? formatFixed(amount, scale) : value;
}

/** Price and quantity decimals a panel shows when the pairs list does not know the market. */
export interface PanelPrecision {
  price: number;
  quantity: number;
}

/** The pair of the id, once the pairs list is in. */
export function useTradingPair(pairId: string): TradingPair | undefined {
  const { data } = usePairs();
  return data?.find((pair) => pair.id === pairId);
}

/** BTC_USD -> ['BTC', 'USD']; the pair's own fields win when known. */
export function pairCurrencies(pairId: string, pair: TradingPair | undefined): { base: string; quote: string } {
  if (pair) return { base: pair.base_currency, quote: pair.quote_currency };
  const [base = pairId, quote = ''] = pairId.split('_');
  return { base, quote };
}

/** The deepest scale among some decimals: a precision to show when the pair is not known yet. */
export function deepestScale(values: readonly Amount[], fallback: number): number {
  if (values.length === 0) return fallback;
  return values.reduce((deepest, value) => Math.max(deepest, value.scale), 0);
}
