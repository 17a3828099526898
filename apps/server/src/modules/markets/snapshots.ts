import { marketStatisticsSchema, priceUpdateSchema, type TradingPair, tradingPairSchema } from '@platform/contracts';
import { z } from 'zod';
import { type EncodedBody, EncodedCache, encodeBody } from '../../http/encoded-body.ts';
import { ok, type Result } from '../../lib/errors.ts';
import type { PairCatalogue, PairRow } from './catalogue.ts';
import type { MarketFeed } from './feed.ts';
import { isOpen, statisticsOf, tickerOf, toTradingPair } from './service.ts';

const MS_PER_MINUTE = 60_000;
const tradingPairsSchema = z.array(tradingPairSchema);

/**
 * Bodies by key, each built at a version and rebuilt at the first read of a newer one. A failed
 * build (a pair with no price yet) is kept as its failure, so it is not retried per read either.
 * Keys are catalogued pairs only (unknown symbols are refused before), so the map stays bounded.
 */
export class VersionedBodies {
  private readonly entries = new Map<string, { version: string; result: Result<EncodedBody> }>();

  get(key: string, version: string, build: () => Result<EncodedBody>): Result<EncodedBody> {
    const entry = this.entries.get(key);
    if (entry && entry.version === version) return entry.result;
    const result = build();
    this.entries.set(key, { version, result });
    return result;
  }
}

/** Encodes a value checked against its response schema: once per change, never per request. */
export function encodeChecked<T>(schema: z.ZodType<T>, value: unknown): EncodedBody {
  return encodeBody(schema.parse(value));
}

/**
 * The public market reads as pre-encoded bodies: the pair lists, one pair, its ticker and its 24 h
 * statistics. Each is tagged with the version of what it shows (the catalogue's, the feed's for
 * the pair or for all pairs, and the minute: the 24 h trade window slides by whole minutes), so a
 * read after any change rebuilds it once and every other read sends the same bytes.
 */
export class MarketSnapshots {
  private readonly lists = new EncodedCache<'all' | 'open'>(2);
  private readonly bodies = new VersionedBodies();

  constructor(
    readonly pairs: PairCatalogue,
    private readonly feed: MarketFeed,
    private readonly clock: () => Date,
  ) {}

  /** The version of one pair's fields and live figures now. */
  pairVersion(pairId: string): string {
    return `${this.pairs.version}|${this.feed.versions.of(pairId)}|${this.minute()}`;
  }

  /** The version of every pair's fields and live figures now. */
  allVersion(): string {
    return `${this.pairs.version}|${this.feed.versions.total}|${this.minute()}`;
  }

  private minute(): number {
    return Math.floor(this.clock().getTime() / MS_PER_MINUTE);
  }

  /** Every pair, or only those open for trading, with their live figures. */
  tradingPairs(onlyOpen = false): EncodedBody {
    return this.lists.get(onlyOpen ? 'open' : 'all', this.allVersion(), () =>
      tradingPairsSchema.parse(this.tradingPairValues(onlyOpen)),
    );
  }

  private tradingPairValues(onlyOpen: boolean): TradingPair[] {
    const rows = this.pairs.all();
    return (onlyOpen ? rows.filter(isOpen) : rows).map((row) => toTradingPair(row, this.feed));
  }

  tradingPair(symbol: string): Result<EncodedBody> {
    return this.perPair('pair', symbol, (row) => ok(encodeChecked(tradingPairSchema, toTradingPair(row, this.feed))));
  }

  ticker(symbol: string): Result<EncodedBody> {
    return this.perPair('ticker', symbol, (row) => {
      const update = tickerOf(this.feed, row.id);
      return update.ok ? ok(encodeChecked(priceUpdateSchema, update.value)) : update;
    });
  }

  statistics(symbol: string): Result<EncodedBody> {
    return this.perPair('statistics', symbol, (row) => {
      const statistics = statisticsOf(this.feed, row.id);
      return statistics.ok ? ok(encodeChecked(marketStatisticsSchema, statistics.value)) : statistics;
    });
  }

  private perPair(kind: string, symbol: string, build: (row: PairRow) => Result<EncodedBody>): Result<EncodedBody> {
    const found = this.pairs.find(symbol);
    if (!found.ok) return found;
    const row = found.value;
    return this.bodies.get(`${kind}|${row.id}`, this.pairVersion(row.id), () => build(row));
  }
}
