/**
 * A broken invariant: a bug in our own code, never a user's mistake. Expected failures are
 * `Result`s (lib/errors.ts); this error reaches the edge as a 500 and the log as an error, so that
 * a wrong balance or a lost ticket stops the operation instead of being written.
 */
export class InvariantError extends Error {
  override readonly name = 'InvariantError';
}

/** Checks what must always hold (TigerBeetle style: densely, in the ledger, the funds book, the writer, the sequencer). */
export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new InvariantError(message);
}
