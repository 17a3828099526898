import { AppError, type Failure, type Result } from '../../lib/errors.ts';
import type { DecideContext } from './context.ts';

/** One command of the exchange: decided in memory with its batch, answered once the batch commits. */
export interface Job<T = unknown> {
  kind: string;
  payload: unknown;
  /** Accounts whose futures wallets the command reads. */
  accounts: readonly string[];
  /** Runs alone in its batch (a transfer in from spot: the spot balance may refuse it at the database). */
  alone?: boolean;
  /** Before the batch is decided (may read committed rows): an answer here settles the command (idempotent repeats). */
  prepare?: () => Promise<Result<T> | null>;
  decide: (ctx: DecideContext) => Result<T>;
  resolve: (result: Result<T>) => void;
  reject: (error: unknown) => void;
}

/** Most commands one batch takes. */
export const MAX_BATCH = 256;

/** The batch at the head of the queue: jobs up to the first one that must run alone (or that one by itself). */
export function takeBatch(queue: Job[]): Job[] {
  if (queue[0]?.alone) return queue.splice(0, 1);
  let count = 0;
  while (count < queue.length && count < MAX_BATCH && !queue[count]!.alone) count++;
  return queue.splice(0, count);
}

/** What a caller hears when its batch could not be written (nothing of it was applied). */
export function writeFailure(error: unknown): AppError {
  if (error instanceof AppError) return error;
  return new AppError('ORDER_PLACEMENT_FAILED', {
    message: 'The futures exchange could not save this change; nothing was applied. Try again.',
  });
}

export const failed = (failure: Failure): Result<never> => failure;
