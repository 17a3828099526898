import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MarketEngine } from './market-engine.ts';
import type {
  EngineOrder,
  MarketCommand,
  MarketCommandResult,
  MarketOrderType,
  MarketRules,
  MarketSnapshot,
} from './market-types.ts';
import type { OrderBook } from './order-book.ts';
import { ORDER_BOOK_IMPLEMENTATIONS } from './test-support.ts';
import type { RestingOrder, SelfTradePreventionMode, Side, TimeInForce } from './types.ts';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Draft = DistributiveOmit<MarketCommand, 'sequence' | 'timestampMs'>;

/** A small id space on purpose, so that cancels, modifies and duplicates hit real orders often. */
const ORDER_ID_COUNT = 16;
const ACCOUNTS = ['a', 'b', 'c'] as const;
const BAND_BPS = 500;

/** Each order id belongs to one account, so that cancels and modifies usually name the owner. */
function ownerOf(idNumber: number): string {
  return ACCOUNTS[idNumber % ACCOUNTS.length]!;
}

/** Around the reference prices, so that most prices fall inside the band and some outside. */
const priceArbitrary = fc.integer({ min: 94, max: 106 });
const maybePrice = fc.option(priceArbitrary, { nil: null, freq: 3 });
const referenceArbitrary = fc.option(fc.integer({ min: 98, max: 102 }), { nil: null, freq: 3 });
/** Within the rules' 1..8 lots mostly, and now and then 0 or above the maximum. */
const quantityArbitrary = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 1, max: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, 9) },
);
const modeArbitrary = fc.constantFrom<SelfTradePreventionMode>('cancel_newest', 'cancel_oldest', 'cancel_both');

const typeArbitrary = fc.constantFrom<MarketOrderType>(
  'limit',
  'limit',
  'limit',
  'limit',
  'market',
  'market',
  'stop_loss',
  'stop_limit',
  'take_profit',
  'take_profit_limit',
  'oco',
  'oco',
);

/** Mostly valid orders (fields as the type wants them), with a share of malformed ones. */
const placeArbitrary = fc
  .record({
    id: fc.nat(ORDER_ID_COUNT - 1),
    side: fc.constantFrom<Side>('buy', 'sell'),
    type: typeArbitrary,
    quantityLots: quantityArbitrary,
    byQuote: fc.boolean(),
    quoteAmount: fc.bigInt({ min: 50n, max: 2_000n }),
    priceTicks: priceArbitrary,
    stopPriceTicks: priceArbitrary,
    stopLimitPriceTicks: maybePrice,
    timeInForce: fc.constantFrom<TimeInForce>('GTC', 'GTC', 'GTC', 'IOC', 'FOK'),
    postOnly: fc.boolean(),
    selfTradePrevention: fc.option(modeArbitrary, { nil: null, freq: 2 }),
    referencePriceTicks: referenceArbitrary,
    malformed: fc.nat(19),
  })
  .map((drawn): Draft => {
    const type = drawn.type;
    const hasPrice = type === 'limit' || type === 'stop_limit' || type === 'take_profit_limit' || type === 'oco';
    const hasStop = type !== 'limit' && type !== 'market';
    const canUseQuote = type === 'market' || type === 'stop_loss' || type === 'take_profit';
    let timeInForce: TimeInForce = hasStop ? 'GTC' : drawn.timeInForce;
    if (type === 'market' && timeInForce === 'GTC') timeInForce = 'IOC';
    const byQuote = canUseQuote && drawn.byQuote;
    if (byQuote && timeInForce === 'FOK') timeInForce = 'IOC';
    const draft: Draft = {
      kind: 'place',
      orderId: `o${drawn.id}`,
      accountId: ownerOf(drawn.id),
      side: drawn.side,
      type,
      quantityLots: drawn.quantityLots,
      quoteAmount: byQuote ? drawn.quoteAmount : null,
      priceTicks: hasPrice ? drawn.priceTicks : null,
      stopPriceTicks: hasStop ? drawn.stopPriceTicks : null,
      stopLimitPriceTicks: type === 'oco' ? drawn.stopLimitPriceTicks : null,
      timeInForce,
      postOnly: type === 'limit' && timeInForce === 'GTC' && drawn.postOnly,
      selfTradePrevention: drawn.selfTradePrevention,
      referencePriceTicks: drawn.referencePriceTicks,
    };
    // One in twenty keeps the raw draw: wrong time in force, post-only where it is not allowed.
    if (drawn.malformed === 0) return { ...draft, timeInForce: drawn.timeInForce, postOnly: drawn.postOnly };
    return draft;
  });

const accountFor = (id: number) =>
  fc.oneof({ weight: 5, arbitrary: fc.constant(ownerOf(id)) }, { weight: 1, arbitrary: fc.constantFrom(...ACCOUNTS) });

const cancelArbitrary = fc
  .nat(ORDER_ID_COUNT - 1)
  .chain((id) => accountFor(id).map((accountId): Draft => ({ kind: 'cancel', orderId: `o${id}`, accountId })));

const modifyArbitrary = fc.nat(ORDER_ID_COUNT - 1).chain((id) =>
  fc
    .record({
      accountId: accountFor(id),
      quantityLots: fc.option(quantityArbitrary, { nil: null }),
      priceTicks: maybePrice,
      stopPriceTicks: maybePrice,
      referencePriceTicks: referenceArbitrary,
    })
    .map((fields): Draft => ({ kind: 'modify', orderId: `o${id}`, ...fields })),
);

const draftArbitrary = fc.oneof(
  { weight: 8, arbitrary: placeArbitrary },
  { weight: 2, arbitrary: cancelArbitrary },
  { weight: 2, arbitrary: modifyArbitrary },
);

/** Sequences increase with gaps (rejected commands and other markets use numbers too). */
const commandsArbitrary = fc
  .array(fc.tuple(draftArbitrary, fc.integer({ min: 1, max: 3 })), { minLength: 1, maxLength: 120, size: 'max' })
  .map((drafts) => {
    let sequence = 0;
    return drafts.map(([draft, gap]): MarketCommand => {
      sequence += gap;
      return { ...draft, sequence, timestampMs: 1_000 * sequence } as MarketCommand;
    });
  });

const rulesArbitrary = modeArbitrary.map(
  (selfTradePrevention): MarketRules => ({
    minQuantityLots: 1,
    maxQuantityLots: 8,
    priceBandBps: BAND_BPS,
    selfTradePrevention,
  }),
);

/**
 * The whole engine state as text. Cheaper than stateHash per step and stricter: a reject must leave
 * every field as it was (the scenario suite checks the hash itself on every reject).
 */
function fingerprint(engine: MarketEngine): string {
  return JSON.stringify(engine.snapshot(), (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value));
}

function runAll(engine: MarketEngine, commands: MarketCommand[]): MarketCommandResult[] {
  return commands.map((command) => engine.apply(command));
}

function triggerHolds(order: EngineOrder, lastTradePriceTicks: number): boolean {
  const takeProfit = order.type === 'take_profit' || order.type === 'take_profit_limit';
  const onFall = (order.side === 'sell') !== takeProfit;
  const stop = order.stopPriceTicks!;
  return onFall ? lastTradePriceTicks <= stop : lastTradePriceTicks >= stop;
}

/**
 * Protection bounds the taker's adverse side only: a sell may still hit a bid above the band (placed
 * when there was no reference price), which only helps the seller.
 */
function withinProtection(takerSide: Side, priceTicks: number, referencePriceTicks: number): boolean {
  const scaledPrice = BigInt(priceTicks) * 10_000n;
  const reference = BigInt(referencePriceTicks);
  const band = BigInt(BAND_BPS);
  return takerSide === 'buy'
    ? scaledPrice <= reference * (10_000n + band)
    : scaledPrice >= reference * (10_000n - band);
}

function checkBookSide(orders: RestingOrder[], side: Side): void {
  for (const [index, order] of orders.entries()) {
    expect(order.remainingLots > 0).toBe(true);
    const next = orders[index + 1];
    if (next === undefined) continue;
    if (side === 'buy') expect(order.priceTicks >= next.priceTicks).toBe(true);
    else expect(order.priceTicks <= next.priceTicks).toBe(true);
    // Orders triggered by one command share its sequence.
    if (order.priceTicks === next.priceTicks) expect(order.sequence <= next.sequence).toBe(true);
  }
}

/**
 * The book is sound, and what the engine tracks is exactly what the book holds plus the waiting
 * orders; no waiting order should already have triggered.
 */
function checkEngineState(engine: MarketEngine, book: OrderBook): void {
  const snapshot = engine.snapshot();
  checkBookSide(snapshot.book.bids, 'buy');
  checkBookSide(snapshot.book.asks, 'sell');
  const bestBid = book.bestBid();
  const bestAsk = book.bestAsk();
  if (bestBid !== null && bestAsk !== null) expect(bestBid < bestAsk).toBe(true);

  const waiting = snapshot.orders.filter((order) => order.state === 'waiting_trigger');
  expect(snapshot.waitingOrderIds).toEqual(waiting.map((order) => order.orderId));
  const last = book.lastTradePrice();
  for (const order of waiting) {
    if (last !== null) expect(triggerHolds(order, last), `${order.orderId} should have triggered`).toBe(false);
    // A waiting oco always has its limit leg in the book; other waiting orders have nothing there.
    expect(order.limitLegResting).toBe(order.type === 'oco');
    // Only an oco's limit leg can trade before the trigger, and its first trade ends the stop leg.
    expect(order.filledLots).toBe(0);
  }

  const expectedInBook = new Map<string, number>();
  for (const order of snapshot.orders) {
    expect(order.filledLots + order.remainingLots).toBe(order.quantityLots);
    expect(order.remainingLots > 0).toBe(true);
    if (order.state === 'resting' || order.limitLegResting) expect(order.timeInForce).toBe('GTC');
    if (order.state === 'resting' || order.limitLegResting) expect(order.quoteAmount).toBeNull();
    if (order.state === 'resting' || order.limitLegResting) expectedInBook.set(order.orderId, order.remainingLots);
  }
  const inBook = new Map<string, number>();
  for (const order of [...snapshot.book.bids, ...snapshot.book.asks]) inBook.set(order.orderId, order.remainingLots);
  expect(inBook).toEqual(expectedInBook);
}

interface OrderLife {
  type: MarketOrderType;
  quantityLots: number;
  filledLots: number;
  stopPriceTicks: number | null;
  stopLimitPriceTicks: number | null;
}

/**
 * Follows every order from its events alone, as the server will: accepted, trades, modifications,
 * and its end. Checks that the lots add up at every step and that trades conserve base and quote.
 */
class EventLedger {
  readonly open = new Map<string, OrderLife>();
  readonly baseByAccount = new Map<string, number>();
  readonly quoteByAccount = new Map<string, bigint>();

  record(command: MarketCommand, result: MarketCommandResult): void {
    expect(result.sequence).toBe(command.sequence);
    if (result.status === 'rejected') {
      expect(result.events).toEqual([]);
      return;
    }
    if (command.kind === 'place')
      expect(result.events[0]).toMatchObject({ type: 'accepted', orderId: command.orderId });
    const triggeredHere = new Set<string>();
    let tradeIndex = 0;
    for (const event of result.events) {
      switch (event.type) {
        case 'accepted': {
          expect(command.kind).toBe('place');
          if (command.kind !== 'place') break;
          expect(this.open.has(event.orderId)).toBe(false);
          this.open.set(event.orderId, {
            type: command.type,
            quantityLots: command.quantityLots,
            filledLots: 0,
            stopPriceTicks: command.stopPriceTicks,
            stopLimitPriceTicks: command.stopLimitPriceTicks,
          });
          break;
        }
        case 'trade': {
          expect(event.tradeId).toBe(`${command.sequence}:${tradeIndex++}`);
          expect(event.quantityLots > 0).toBe(true);
          expect(event.makerAccountId).not.toBe(event.takerAccountId);
          const maker = this.fill(event.makerOrderId, event.quantityLots);
          const taker = this.fill(event.takerOrderId, event.quantityLots);
          expect(event.makerRemainingLots).toBe(maker.quantityLots - maker.filledLots);
          expect(event.takerRemainingLots).toBe(taker.quantityLots - taker.filledLots);
          this.settle(
            event.takerSide,
            event.takerAccountId,
            event.makerAccountId,
            event.priceTicks,
            event.quantityLots,
          );
          this.checkProtection(command, event.takerOrderId, taker, triggeredHere, event.takerSide, event.priceTicks);
          break;
        }
        case 'triggered':
          expect(this.open.has(event.orderId)).toBe(true);
          triggeredHere.add(event.orderId);
          break;
        case 'rested': {
          const life = this.open.get(event.orderId)!;
          expect(event.remainingLots).toBe(life.quantityLots - life.filledLots);
          break;
        }
        case 'modified': {
          const life = this.open.get(event.orderId)!;
          expect(event.quantityLots > life.filledLots).toBe(true);
          life.quantityLots = event.quantityLots;
          life.stopPriceTicks = event.stopPriceTicks;
          break;
        }
        case 'filled': {
          const life = this.open.get(event.orderId)!;
          expect(life.filledLots).toBe(life.quantityLots);
          this.open.delete(event.orderId);
          break;
        }
        case 'ended': {
          const life = this.open.get(event.orderId)!;
          expect(event.unfilledLots > 0).toBe(true);
          expect(life.filledLots + event.unfilledLots).toBe(life.quantityLots);
          this.open.delete(event.orderId);
          break;
        }
      }
    }
  }

  /** What the events say is open is exactly what the engine says is open, with the same lots. */
  check(engine: MarketEngine): void {
    const orders = engine.openOrders();
    expect(orders.map((order) => order.orderId).sort()).toEqual([...this.open.keys()].sort());
    for (const order of orders) {
      const life = this.open.get(order.orderId)!;
      expect(order.quantityLots).toBe(life.quantityLots);
      expect(order.filledLots).toBe(life.filledLots);
    }
    let base = 0;
    for (const lots of this.baseByAccount.values()) base += lots;
    let quote = 0n;
    for (const amount of this.quoteByAccount.values()) quote += amount;
    expect(base).toBe(0);
    expect(quote).toBe(0n);
  }

  private fill(orderId: string, lots: number): OrderLife {
    const life = this.open.get(orderId);
    expect(life, `${orderId} trades while not open`).toBeDefined();
    life!.filledLots += lots;
    expect(life!.filledLots <= life!.quantityLots).toBe(true);
    return life!;
  }

  private settle(takerSide: Side, taker: string, maker: string, priceTicks: number, lots: number): void {
    const [buyer, seller] = takerSide === 'buy' ? [taker, maker] : [maker, taker];
    this.baseByAccount.set(buyer, (this.baseByAccount.get(buyer) ?? 0) + lots);
    this.baseByAccount.set(seller, (this.baseByAccount.get(seller) ?? 0) - lots);
    const notional = BigInt(priceTicks) * BigInt(lots);
    this.quoteByAccount.set(buyer, (this.quoteByAccount.get(buyer) ?? 0n) - notional);
    this.quoteByAccount.set(seller, (this.quoteByAccount.get(seller) ?? 0n) + notional);
  }

  /**
   * A market order never trades beyond the band edge around its command's reference price; a stop
   * that triggered into a market order never beyond the band edge around its own stop price (the
   * server holds a buy's funds up to that edge).
   */
  private checkProtection(
    command: MarketCommand,
    takerOrderId: string,
    taker: OrderLife,
    triggeredHere: Set<string>,
    takerSide: Side,
    priceTicks: number,
  ): void {
    const triggeredMarket =
      triggeredHere.has(takerOrderId) &&
      (taker.type === 'stop_loss' ||
        taker.type === 'take_profit' ||
        (taker.type === 'oco' && taker.stopLimitPriceTicks === null));
    if (triggeredMarket) {
      expect(taker.stopPriceTicks).not.toBeNull();
      expect(withinProtection(takerSide, priceTicks, taker.stopPriceTicks!)).toBe(true);
      return;
    }
    if (command.kind === 'cancel' || command.referencePriceTicks === null) return;
    const placedMarket = command.kind === 'place' && command.type === 'market' && command.orderId === takerOrderId;
    if (placedMarket) expect(withinProtection(takerSide, priceTicks, command.referencePriceTicks)).toBe(true);
  }
}

describe.each(ORDER_BOOK_IMPLEMENTATIONS)('MarketEngine on $name: properties', ({ create }) => {
  const newEngine = (rules: MarketRules) => {
    const book = create();
    return { book, engine: new MarketEngine(book, rules) };
  };

  it('keeps the book sound, the lots accounted for, trades conserved and rejects without effect', () => {
    fc.assert(
      fc.property(rulesArbitrary, commandsArbitrary, (rules, commands) => {
        const { book, engine } = newEngine(rules);
        const ledger = new EventLedger();
        for (const command of commands) {
          const before = fingerprint(engine);
          const result = engine.apply(command);
          if (result.status === 'rejected') expect(fingerprint(engine)).toBe(before);
          else expect(engine.lastSequence()).toBe(command.sequence);
          ledger.record(command, result);
          ledger.check(engine);
          checkEngineState(engine, book);
        }
        expect(engine.stateHash()).toMatch(/^[0-9a-f]{16}$/);
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it('replaying the same journal into a fresh engine gives the same events and state hash', () => {
    fc.assert(
      fc.property(rulesArbitrary, commandsArbitrary, (rules, commands) => {
        const first = newEngine(rules).engine;
        const second = newEngine(rules).engine;
        expect(runAll(second, commands)).toEqual(runAll(first, commands));
        expect(second.stateHash()).toBe(first.stateHash());
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it('a snapshot restored into a fresh engine, then the rest of the journal, ends in the same state', () => {
    fc.assert(
      fc.property(rulesArbitrary, commandsArbitrary, fc.nat(), (rules, commands, cutSeed) => {
        const cut = commands.length === 0 ? 0 : cutSeed % (commands.length + 1);
        const straight = newEngine(rules).engine;
        const straightResults = runAll(straight, commands);

        const before = newEngine(rules).engine;
        runAll(before, commands.slice(0, cut));
        const snapshot: MarketSnapshot = structuredClone(before.snapshot());
        const restored = newEngine(rules).engine;
        restored.restore(snapshot);
        expect(restored.stateHash()).toBe(before.stateHash());
        expect(runAll(restored, commands.slice(cut))).toEqual(straightResults.slice(cut));
        expect(restored.stateHash()).toBe(straight.stateHash());
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});

describe('MarketEngine across book implementations', () => {
  it.skipIf(ORDER_BOOK_IMPLEMENTATIONS.length < 2)(
    'gives the same events and state hash on every book',
    () => {
      fc.assert(
        fc.property(rulesArbitrary, commandsArbitrary, (rules, commands) => {
          const [reference, ...others] = ORDER_BOOK_IMPLEMENTATIONS.map(
            ({ create }) => new MarketEngine(create(), rules),
          );
          const expected = runAll(reference!, commands);
          for (const engine of others) {
            expect(runAll(engine, commands)).toEqual(expected);
            expect(engine.stateHash()).toBe(reference!.stateHash());
          }
        }),
        { numRuns: 150 },
      );
    },
    60_000,
  );
});
