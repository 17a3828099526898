import { randomUUID } from 'node:crypto';
import type { Result } from '../../lib/errors.ts';
import type { DecideContext } from './context.ts';
import { triggerOrders } from './triggers.ts';
import { followMoved } from './upkeep.ts';

/**
 * What a command read from outside the exchange's state while it was decided, written with its
 * journal row so that a replay decides it again exactly (replay.ts): the batch it was decided in
 * (in-batch repeats of a client id answer the first), the clock, every mark it read (null: none
 * known) and the ids it generated, in order.
 */
export type CommandInputs = { batch: number; now: number; marks: Record<string, number | null>; ids: string[] };

/** Takes the command's sequence, decides it, then its follow-ups: reduce-only trims, TP/SL moves, stop triggers. */
export function runCommand<T>(
  ctx: DecideContext,
  decide: (ctx: DecideContext) => Result<T>,
): { sequence: number; result: Result<T> } {
  const sequence = ctx.nextSequence();
  const result = decide(ctx);
  follow(ctx);
  return { sequence, result };
}

/** The positions the command moved let their orders follow; then the stops its trades reached trigger (triggers.ts). */
function follow(ctx: DecideContext): void {
  followMoved(ctx);
  triggerOrders(ctx);
}

/** A live command's context: its mark reads and new ids go through it and are recorded. */
export function recordingContext(base: DecideContext, batch: number): { ctx: DecideContext; inputs: CommandInputs } {
  const inputs: CommandInputs = { batch, now: base.now.getTime(), marks: {}, ids: [] };
  const read = new Map<string, number | null>();
  const ctx: DecideContext = {
    ...base,
    moved: new Set(),
    markOf: (marketId) => {
      if (read.has(marketId)) return read.get(marketId)!;
      const mark = base.markOf(marketId);
      read.set(marketId, mark);
      inputs.marks[marketId] = mark;
      return mark;
    },
    newId: () => {
      const id = randomUUID();
      inputs.ids.push(id);
      return id;
    },
  };
  return { ctx, inputs };
}

/** A replay diverged from what the journal recorded (a bug, or a journal the code cannot read). */
export class ReplayDivergence extends Error {}

/** A replayed command's context: the recorded clock, marks and ids, and nothing else from outside. */
export function replayContext(base: Omit<DecideContext, 'now' | 'markOf' | 'newId' | 'moved'>, inputs: CommandInputs) {
  let next = 0;
  const ctx: DecideContext = {
    ...base,
    now: new Date(inputs.now),
    moved: new Set(),
    markOf: (marketId) => {
      const mark = Object.hasOwn(inputs.marks, marketId) ? inputs.marks[marketId] : undefined;
      if (mark === undefined)
        throw new ReplayDivergence(`the replay read the mark of ${marketId}, which the command did not`);
      return mark;
    },
    newId: () => {
      const id = inputs.ids[next++];
      if (id === undefined) throw new ReplayDivergence('the replay generated more ids than the command did');
      return id;
    },
  };
  return { ctx, allIdsUsed: () => next === inputs.ids.length };
}

/** JSON of a payload or inputs with its bigints kept as `{"$bigint": "123"}` (decodeJournal restores them). */
export function encodeJournal(value: unknown): string {
  return JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? { $bigint: item.toString() } : item));
}

/** Parses what encodeJournal wrote (a jsonb column comes back parsed: pass it through `revive`). */
export function decodeJournal(text: string): unknown {
  return JSON.parse(text, reviveBigint);
}

/** Restores the bigints of an already parsed value (jsonb rows). */
export function revive(value: unknown): unknown {
  return decodeJournal(JSON.stringify(value));
}

function reviveBigint(_key: string, item: unknown): unknown {
  if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
    const keys = Object.keys(item);
    const text = (item as { $bigint?: unknown }).$bigint;
    if (keys.length === 1 && typeof text === 'string' && /^-?\d+$/.test(text)) return BigInt(text);
  }
  return item;
}
