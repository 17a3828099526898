import { type Amount, add, gt, lt, toScale, zero } from '@platform/money';

// The rolling 24-hour windows behind a pair's statistics: the reference price's and our own trades'.

const MS_PER_MINUTE = 60_000;
const MINUTES_PER_DAY = 1_440;

export type MinuteBucket = { minute: number; open: Amount; high: Amount; low: Amount; close: Amount; volume: Amount };

/** A coin's USD price over the last 24 h, in one-minute buckets. */
export class CoinWindow {
  readonly buckets: MinuteBucket[] = [];
  price: Amount;
  source: string;
  marketCapUsd: string | null = null;
  timestampMs: number;
  /** The coin's global 24 h USD volume as the source reports it (simulated on the simulator). */
  volume24hUsd: Amount = zero();

  constructor(
    readonly symbol: string,
    readonly priceScale: number,
    readonly quantityScale: number,
    price: Amount,
    source: string,
    timestampMs: number,
  ) {
    this.price = toScale(price, priceScale, 'half_even');
    this.source = source;
    this.timestampMs = timestampMs;
  }

  /** Applies a price at a time; returns the minute candle it landed in and the volume it added. */
  apply(price: Amount, timeMs: number): { bucket: MinuteBucket; addedVolume: Amount; newMinute: boolean } {
    this.price = toScale(price, this.priceScale, 'half_even');
    this.timestampMs = timeMs;
    if (this.cached) {
      if (gt(this.price, this.cached.high)) this.cached.high = this.price;
      if (lt(this.price, this.cached.low)) this.cached.low = this.price;
    }
    const minute = Math.floor(timeMs / MS_PER_MINUTE);
    const last = this.buckets[this.buckets.length - 1];
    if (last && last.minute >= minute) {
      if (gt(this.price, last.high)) last.high = this.price;
      if (lt(this.price, last.low)) last.low = this.price;
      last.close = this.price;
      return { bucket: last, addedVolume: zero(this.quantityScale), newMinute: false };
    }
    // The reference track carries no volume: traded volume comes from our own books (TradeWindow).
    const volume = zero(this.quantityScale);
    const bucket = { minute, open: this.price, high: this.price, low: this.price, close: this.price, volume };
    this.buckets.push(bucket);
    if (this.cached) this.cached.volume = add(this.cached.volume, volume);
    if (this.buckets.length === 1) this.cached = null;
    while ((this.buckets[0]?.minute ?? minute) <= minute - MINUTES_PER_DAY) {
      this.buckets.shift();
      this.cached = null;
    }
    return { bucket, addedVolume: volume, newMinute: true };
  }

  private cached: { open: Amount; high: Amount; low: Amount; volume: Amount } | null = null;

  /** Cached between evictions: a tick only widens the range and adds volume. */
  stats(): { open: Amount; high: Amount; low: Amount; volume: Amount } {
    if (this.cached) return this.cached;
    this.cached = this.computeStats();
    return this.cached;
  }

  invalidate(): void {
    this.cached = null;
  }

  private computeStats(): { open: Amount; high: Amount; low: Amount; volume: Amount } {
    let high = this.price;
    let low = this.price;
    let volume = zero(this.quantityScale);
    for (const bucket of this.buckets) {
      if (gt(bucket.high, high)) high = bucket.high;
      if (lt(bucket.low, low)) low = bucket.low;
      volume = add(volume, bucket.volume);
    }
    return { open: this.buckets[0]?.open ?? this.price, high, low, volume };
  }
}

type TradeMinute = { minute: number; high: Amount; low: Amount; volume: Amount };

/** A pair's trades on our own book: the last price, and one-minute buckets over the last 24 h. */
export class TradeWindow {
  last: Amount | null = null;
  lastMs = 0;
  private readonly minutes: TradeMinute[] = [];
  private cached: { high: Amount; low: Amount; volume: Amount } | null = null;

  constructor(private readonly quantityScale: number) {}

  add(price: Amount, quantity: Amount, timeMs: number): void {
    // Trades arrive in order per market; one from before the last is history (a reload) and only counts.
    if (timeMs >= this.lastMs) {
      this.last = price;
      this.lastMs = timeMs;
    }
    const minute = Math.floor(timeMs / MS_PER_MINUTE);
    const bucket = this.minutes[this.minutes.length - 1];
    if (bucket && bucket.minute === minute) {
      if (gt(price, bucket.high)) bucket.high = price;
      if (lt(price, bucket.low)) bucket.low = price;
      bucket.volume = add(bucket.volume, quantity);
    } else if (!bucket || bucket.minute < minute) {
      this.minutes.push({ minute, high: price, low: price, volume: quantity });
    } else {
      this.addOutOfOrder(minute, price, quantity);
      return;
    }
    if (this.cached) {
      if (gt(price, this.cached.high)) this.cached.high = price;
      if (lt(price, this.cached.low)) this.cached.low = price;
      this.cached.volume = add(this.cached.volume, quantity);
    }
  }

  private addOutOfOrder(minute: number, price: Amount, quantity: Amount): void {
    const index = this.minutes.findIndex((bucket) => bucket.minute >= minute);
    const bucket = this.minutes[index];
    if (bucket && bucket.minute === minute) {
      if (gt(price, bucket.high)) bucket.high = price;
      if (lt(price, bucket.low)) bucket.low = price;
      bucket.volume = add(bucket.volume, quantity);
    } else {
      this.minutes.splice(index, 0, { minute, high: price, low: price, volume: quantity });
    }
    this.cached = null;
  }

  /** High, low and volume of the trades in the 24 h before nowMs; null when none. */
  stats(nowMs: number): { high: Amount; low: Amount; volume: Amount } | null {
    const oldest = Math.floor(nowMs / MS_PER_MINUTE) - MINUTES_PER_DAY;
    while ((this.minutes[0]?.minute ?? Number.POSITIVE_INFINITY) <= oldest) {
      this.minutes.shift();
      this.cached = null;
    }
    if (this.minutes.length === 0) return null;
    if (this.cached) return this.cached;
    let { high, low } = this.minutes[0]!;
    let volume = zero(this.quantityScale);
    for (const bucket of this.minutes) {
      if (gt(bucket.high, high)) high = bucket.high;
      if (lt(bucket.low, low)) low = bucket.low;
      volume = add(volume, bucket.volume);
    }
    this.cached = { high, low, volume };
    return this.cached;
  }
}
