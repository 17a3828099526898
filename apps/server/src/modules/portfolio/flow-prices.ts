import { type Amount, add, decimal, mul, zero } from '@platform/money';
import type { AccountFlow } from '../wallet/index.ts';

const ONE = decimal('1');
const MINUTE_MS = 60_000;

/**
 * The USD value of flows (deposits, withdrawals, transfers between users), each at its recorded
 * price: 1 for USD; else markets.usdPriceAt at the minute it happened (the close of the price
 * sources' 1 m candle, the price the lots value a deposit with), asked once per currency and minute;
 * without a candle the `fallback` price (the run's, from the summary's chain); without that 0.
 */
export class FlowPricer {
  private readonly prices = new Map<string, Promise<Amount>>();

  constructor(
    private readonly priceAt: (currency: string, timeMs: number) => Promise<string | null>,
    private readonly fallback: (currency: string) => Amount | undefined,
  ) {}

  price(flow: Pick<AccountFlow, 'currency' | 'createdAtMs'>): Promise<Amount> {
    if (flow.currency === 'USD') return Promise.resolve(ONE);
    const minuteMs = Math.floor(flow.createdAtMs / MINUTE_MS) * MINUTE_MS;
    const key = `${flow.currency}:${minuteMs}`;
    let price = this.prices.get(key);
    if (!price) {
      price = this.priceAt(flow.currency, minuteMs).then((recorded) =>
        recorded === null ? (this.fallback(flow.currency) ?? zero()) : decimal(recorded),
      );
      this.prices.set(key, price);
    }
    return price;
  }

  async value(flow: AccountFlow): Promise<Amount> {
    return mul(decimal(flow.amount), await this.price(flow));
  }

  async total(flows: readonly AccountFlow[]): Promise<Amount> {
    let total = zero();
    for (const flow of flows) total = add(total, await this.value(flow));
    return total;
  }
}
