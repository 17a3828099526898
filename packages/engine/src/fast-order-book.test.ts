import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FastOrderBook } from './fast-order-book.ts';
import type { OrderBook } from './order-book.ts';
import { ReferenceOrderBook } from './reference-order-book.ts';
import type { PlaceCommand, SelfTradePreventionMode } from './types.ts';

type Command =
  | { kind: 'place'; command: PlaceCommand }
  | { kind: 'cancel'; orderId: string }
  | { kind: 'reduce'; orderId: string; newRemainingLots: number };

/** A small id space on purpose, so that cancels, reductions and duplicates hit real orders often. */
const ORDER_ID_COUNT = 48;

const modeArbitrary = fc.constantFrom<SelfTradePreventionMode>('cancel_newest', 'cancel_oldest', 'cancel_both');

const placeArbitrary = fc
  .record({
    id: fc.nat(ORDER_ID_COUNT - 1),
    account: fc.constantFrom('a', 'b', 'c'),
    side: fc.constantFrom('buy' as const, 'sell' as const),
    type: fc.constantFrom('limit' as const, 'limit' as const, 'limit' as const, 'market' as const),
    // Mostly valid prices, now and then a zero or negative one so that the reject paths are compared too.
    priceTicks: fc.oneof({ weight: 20, arbitrary: fc.integer({ min: 95, max: 105 }) }, fc.constant(0), fc.constant(-3)),
    // Market orders: half without a protection price.
    protected: fc.boolean(),
    quantityLots: fc.oneof({ weight: 20, arbitrary: fc.integer({ min: 1, max: 20 }) }, fc.constant(0)),
    quoteBudget: fc.option(fc.bigInt({ min: -5n, max: 3_000n }), { freq: 3 }),
    selfTradePrevention: fc.option(modeArbitrary, { freq: 2 }),
    timeInForce: fc.constantFrom('GTC' as const, 'GTC' as const, 'IOC' as const, 'FOK' as const),
    postOnly: fc.boolean(),
    keepValid: fc.nat(9),
  })
  .map(({ id, account, keepValid, protected: isProtected, quoteBudget, selfTradePrevention, ...rest }) => {
    const command: PlaceCommand = {
      orderId: `o${id}`,
      accountId: account,
      side: rest.side,
      type: rest.type,
      priceTicks: rest.type === 'market' && !isProtected ? 0 : rest.priceTicks,
      quantityLots: rest.quantityLots,
      timeInForce: rest.timeInForce,
      postOnly: rest.postOnly,
      timestampMs: 0,
      sequence: 0,
    };
    if (quoteBudget !== null) command.quoteBudget = quoteBudget;
    if (selfTradePrevention !== null) command.selfTradePrevention = selfTradePrevention;
    // Most commands are made valid, so that matching is exercised; one in ten is left as drawn.
    if (keepValid > 0) {
      if (command.type === 'market') {
        command.postOnly = false;
        if (command.timeInForce === 'GTC') command.timeInForce = 'IOC';
        if (command.quoteBudget !== undefined && command.timeInForce === 'FOK') command.timeInForce = 'IOC';
      } else {
        delete command.quoteBudget;
        if (command.postOnly) command.timeInForce = 'GTC';
      }
    }
    return command;
  });

const commandArbitrary = fc.oneof(
  { weight: 7, arbitrary: placeArbitrary.map((command) => ({ kind: 'place' as const, command })) },
  { weight: 2, arbitrary: fc.nat(ORDER_ID_COUNT - 1).map((id) => ({ kind: 'cancel' as const, orderId: `o${id}` })) },
  {
    weight: 1,
    arbitrary: fc
      .record({ id: fc.nat(ORDER_ID_COUNT - 1), lots: fc.integer({ min: -1, max: 20 }) })
      .map(({ id, lots }) => ({ kind: 'reduce' as const, orderId: `o${id}`, newRemainingLots: lots })),
  },
);

/** Sequence and time are assigned in order, as the sequencer will do. */
const commandsArbitrary = fc.array(commandArbitrary, { maxLength: 150, size: 'max' }).map((drafts) =>
  drafts.map((draft, index): Command => {
    if (draft.kind !== 'place') return draft;
    return { kind: 'place', command: { ...draft.command, sequence: index + 1, timestampMs: 1_000 * (index + 1) } };
  }),
);

/** A stream that starts after another: its sequence numbers go on from where that one stopped. */
function continuing(commands: Command[], offset: number): Command[] {
  return commands.map((command) =>
    command.kind === 'place'
      ? {
          kind: 'place',
          command: {
            ...command.command,
            sequence: command.command.sequence + offset,
            timestampMs: command.command.timestampMs + offset,
          },
        }
      : command,
  );
}

function run(book: OrderBook, command: Command): unknown {
  switch (command.kind) {
    case 'place':
      return book.place(command.command);
    case 'cancel':
      return book.cancel(command.orderId);
    case 'reduce':
      return book.reduce(command.orderId, command.newRemainingLots);
  }
}

/** Every observable part of a book, so that two books can be compared in one assertion. */
function observe(book: OrderBook): unknown {
  return {
    stateHash: book.stateHash(),
    snapshot: book.snapshot(),
    depth: book.depth(4),
    bestBid: book.bestBid(),
    bestAsk: book.bestAsk(),
    lastTradePrice: book.lastTradePrice(),
  };
}

/** Applies each command to both books and requires the same result and the same state after every step. */
function runInLockstep(reference: OrderBook, fast: OrderBook, commands: Command[]): void {
  for (const [index, command] of commands.entries()) {
    const where = `step ${index}: ${JSON.stringify(command, (_key, value) => (typeof value === 'bigint' ? `${value}n` : value))}`;
    expect(run(fast, command), where).toEqual(run(reference, command));
    expect(fast.stateHash(), where).toBe(reference.stateHash());
    if (command.kind !== 'place') {
      expect(fast.order(command.orderId), where).toEqual(reference.order(command.orderId));
    }
  }
  expect(observe(fast)).toEqual(observe(reference));
}

describe('FastOrderBook against ReferenceOrderBook', () => {
  it('gives the same result for every command and the same state after every step', () => {
    fc.assert(
      fc.property(modeArbitrary, commandsArbitrary, (mode, commands) => {
        runInLockstep(
          new ReferenceOrderBook({ selfTradePrevention: mode }),
          new FastOrderBook({ selfTradePrevention: mode }),
          commands,
        );
      }),
      { numRuns: 400 },
    );
  });

  it('continues identically after a snapshot of one is restored into the other', () => {
    fc.assert(
      fc.property(
        modeArbitrary,
        commandsArbitrary,
        commandsArbitrary,
        fc.boolean(),
        (mode, prefix, suffix, fromReference) => {
          const reference = new ReferenceOrderBook({ selfTradePrevention: mode });
          const fast = new FastOrderBook({ selfTradePrevention: mode });
          const source: OrderBook = fromReference ? reference : fast;
          for (const command of prefix) run(source, command);
          const snapshot = source.snapshot();
          // The book being restored already holds unrelated orders: restore must replace them all.
          const target: OrderBook = fromReference ? fast : reference;
          run(target, { kind: 'place', command: { ...limitCommand('stale'), sequence: 1 } });
          target.restore(snapshot);
          expect(target.snapshot()).toEqual(snapshot);
          expect(target.stateHash()).toBe(source.stateHash());
          runInLockstep(reference, fast, continuing(suffix, prefix.length));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a snapshot from the fast book is a copy that later matching does not change', () => {
    const book = new FastOrderBook();
    book.place({ ...limitCommand('s1'), side: 'sell' });
    const snapshot = book.snapshot();
    const copy = structuredClone(snapshot);
    book.place({ ...limitCommand('b1'), sequence: 2 });
    expect(snapshot).toEqual(copy);
  });
});

function limitCommand(orderId: string): PlaceCommand {
  return {
    orderId,
    accountId: 'z',
    side: 'buy',
    type: 'limit',
    priceTicks: 100,
    quantityLots: 3,
    timeInForce: 'GTC',
    postOnly: false,
    timestampMs: 1,
    sequence: 1,
  };
}
