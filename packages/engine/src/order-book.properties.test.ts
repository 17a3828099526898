import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OrderBook } from './order-book.ts';
import { checkBookInvariants, ORDER_BOOK_IMPLEMENTATIONS } from './test-support.ts';
import type { PlaceCommand, PlaceResult, RestingOrder } from './types.ts';

type Command =
  | { kind: 'place'; command: PlaceCommand }
  | { kind: 'cancel'; orderId: string }
  | { kind: 'reduce'; orderId: string; newRemainingLots: number };

/** A small id space on purpose, so that cancels, reductions and duplicates hit real orders often. */
const ORDER_ID_COUNT = 40;

const placeArbitrary = fc
  .record({
    id: fc.nat(ORDER_ID_COUNT - 1),
    account: fc.constantFrom('a', 'b', 'c'),
    side: fc.constantFrom('buy' as const, 'sell' as const),
    type: fc.constantFrom('limit' as const, 'limit' as const, 'limit' as const, 'market' as const),
    priceTicks: fc.integer({ min: 95, max: 105 }),
    quantityLots: fc.integer({ min: 1, max: 20 }),
    timeInForce: fc.constantFrom(
      'GTC' as const,
      'GTC' as const,
      'GTC' as const,
      'IOC' as const,
      'FOK' as const,
      'FOK' as const,
    ),
    postOnly: fc.boolean(),
  })
  .map(({ id, account, ...rest }) => ({
    orderId: `o${id}`,
    accountId: account,
    ...rest,
    // Market orders must be IOC or FOK and never post-only; keep most generated orders valid.
    timeInForce: rest.type === 'market' && rest.timeInForce === 'GTC' ? ('IOC' as const) : rest.timeInForce,
    postOnly: rest.postOnly && rest.type === 'limit' && rest.timeInForce === 'GTC',
  }));

const commandArbitrary = fc.oneof(
  { weight: 6, arbitrary: placeArbitrary.map((place) => ({ kind: 'place' as const, place })) },
  { weight: 2, arbitrary: fc.nat(ORDER_ID_COUNT - 1).map((id) => ({ kind: 'cancel' as const, orderId: `o${id}` })) },
  {
    weight: 1,
    arbitrary: fc
      .record({ id: fc.nat(ORDER_ID_COUNT - 1), lots: fc.integer({ min: 0, max: 20 }) })
      .map(({ id, lots }) => ({ kind: 'reduce' as const, orderId: `o${id}`, newRemainingLots: lots })),
  },
);

/** Sequence and time are assigned in order, as the sequencer will do. */
const commandsArbitrary = fc.array(commandArbitrary, { maxLength: 120 }).map((drafts) =>
  drafts.map((draft, index): Command => {
    if (draft.kind !== 'place') return draft;
    return { kind: 'place', command: { ...draft.place, sequence: index + 1, timestampMs: 1_000 * (index + 1) } };
  }),
);

type Outcome = ReturnType<OrderBook['place']> | ReturnType<OrderBook['cancel']> | ReturnType<OrderBook['reduce']>;

function run(book: OrderBook, command: Command): Outcome {
  switch (command.kind) {
    case 'place':
      return book.place(command.command);
    case 'cancel':
      return book.cancel(command.orderId);
    case 'reduce':
      return book.reduce(command.orderId, command.newRemainingLots);
  }
}

function runAll(book: OrderBook, commands: Command[]): Outcome[] {
  return commands.map((command) => run(book, command));
}

/** Checks that the fills took the opposite queue strictly from its front: best price, then arrival. */
function checkPriceTimePriority(makersBefore: RestingOrder[], command: PlaceCommand, result: PlaceResult): void {
  for (const [index, fill] of result.fills.entries()) {
    const maker = makersBefore[index];
    expect(maker).toBeDefined();
    expect(fill.makerOrderId).toBe(maker!.orderId);
    expect(fill.priceTicks).toBe(maker!.priceTicks);
    expect(fill.quantityLots > 0).toBe(true);
    expect(fill.quantityLots <= maker!.remainingLots).toBe(true);
    // Only the last fill may leave its maker partly filled.
    if (index < result.fills.length - 1) expect(fill.quantityLots).toBe(maker!.remainingLots);
    if (command.type === 'limit') {
      if (command.side === 'buy') expect(fill.priceTicks <= command.priceTicks).toBe(true);
      else expect(fill.priceTicks >= command.priceTicks).toBe(true);
    }
    expect(fill.makerAccountId).not.toBe(fill.takerAccountId);
  }
}

/** FOK fills completely or not at all; IOC and market orders never rest; post-only never takes. */
function checkTimeInForce(command: PlaceCommand, result: PlaceResult & { status: 'accepted' }): void {
  if (command.timeInForce === 'FOK') expect(result.filledLots).toBe(command.quantityLots);
  if (command.timeInForce !== 'GTC' || command.type === 'market') expect(result.restingLots).toBe(0);
  if (command.postOnly) expect(result.fills).toEqual([]);
}

/**
 * Follows every order that entered the book, from its placed quantity to its fills, cancellations and
 * what still rests, so that quantity conservation can be checked at the end.
 */
class QuantityLedger {
  private readonly placed = new Map<string, number>();
  private readonly filled = new Map<string, number>();
  private readonly cancelled = new Map<string, number>();
  /** Order ids may be reused once an order has left the book; each life is a separate key. */
  private readonly currentKey = new Map<string, string>();
  private lives = 0;

  record(command: Command, outcome: Outcome): void {
    if (command.kind === 'place' && outcome.status === 'accepted' && 'fills' in outcome) {
      const key = `${command.command.orderId}#${this.lives++}`;
      this.currentKey.set(command.command.orderId, key);
      this.placed.set(key, command.command.quantityLots);
      this.add(this.cancelled, key, outcome.cancelledLots);
      for (const fill of outcome.fills) {
        this.add(this.filled, key, fill.quantityLots);
        this.add(this.filled, this.currentKey.get(fill.makerOrderId)!, fill.quantityLots);
      }
      expect(outcome.filledLots + outcome.restingLots + outcome.cancelledLots).toBe(command.command.quantityLots);
    }
    if (outcome.status === 'cancelled')
      this.add(this.cancelled, this.currentKey.get(outcome.orderId)!, outcome.cancelledLots);
    if (outcome.status === 'reduced')
      this.add(this.cancelled, this.currentKey.get(outcome.orderId)!, outcome.cancelledLots);
  }

  check(book: OrderBook): void {
    const resting = new Map<string, number>();
    for (const order of [...book.orders('buy'), ...book.orders('sell')]) {
      resting.set(this.currentKey.get(order.orderId)!, order.remainingLots);
    }
    for (const [key, placedLots] of this.placed) {
      const filledLots = this.filled.get(key) ?? 0;
      expect(filledLots <= placedLots).toBe(true);
      expect(filledLots + (this.cancelled.get(key) ?? 0) + (resting.get(key) ?? 0)).toBe(placedLots);
    }
  }

  private add(map: Map<string, number>, key: string, lots: number): void {
    map.set(key, (map.get(key) ?? 0) + lots);
  }
}

describe.each(ORDER_BOOK_IMPLEMENTATIONS)('$name properties', ({ create }) => {
  it('keeps the book uncrossed, honours price-time priority and conserves quantity', () => {
    fc.assert(
      fc.property(commandsArbitrary, (commands) => {
        const book = create();
        const ledger = new QuantityLedger();
        for (const command of commands) {
          const makersBefore =
            command.kind === 'place' ? book.orders(command.command.side === 'buy' ? 'sell' : 'buy') : [];
          const outcome = run(book, command);
          if (command.kind === 'place' && outcome.status === 'accepted' && 'fills' in outcome) {
            checkPriceTimePriority(makersBefore, command.command, outcome);
            checkTimeInForce(command.command, outcome);
          }
          if (outcome.status === 'rejected') expect(outcome.reason).toMatch(/^[a-z_]+$/);
          ledger.record(command, outcome);
          checkBookInvariants(book);
        }
        ledger.check(book);
      }),
      { numRuns: 200 },
    );
  });

  it('replaying the same commands gives the same results and state hash', () => {
    fc.assert(
      fc.property(commandsArbitrary, (commands) => {
        const first = create();
        const second = create();
        expect(runAll(second, commands)).toEqual(runAll(first, commands));
        expect(second.stateHash()).toBe(first.stateHash());
      }),
      { numRuns: 100 },
    );
  });

  it('snapshot and restore, then the same commands, give the same state hash', () => {
    fc.assert(
      fc.property(commandsArbitrary, commandsArbitrary, (prefix, suffix) => {
        const original = create();
        runAll(original, prefix);
        const restored = create();
        restored.restore(original.snapshot());
        expect(restored.stateHash()).toBe(original.stateHash());
        expect(runAll(restored, suffix)).toEqual(runAll(original, suffix));
        expect(restored.stateHash()).toBe(original.stateHash());
      }),
      { numRuns: 100 },
    );
  });

  it('a different book gives a different state hash', () => {
    const book = create();
    const empty = book.stateHash();
    book.place({
      orderId: 'x',
      accountId: 'a',
      side: 'buy',
      type: 'limit',
      priceTicks: 100,
      quantityLots: 1,
      timeInForce: 'GTC',
      postOnly: false,
      timestampMs: 1,
      sequence: 1,
    });
    expect(book.stateHash()).not.toBe(empty);
    expect(book.stateHash()).toMatch(/^[0-9a-f]{16}$/);
  });
});
