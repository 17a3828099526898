import type { Failure, Result } from '../lib/errors.ts';
import type { Database, Transaction, TransactionOptions } from './database.ts';

/** Carries a Failure out of a transaction callback so that the transaction rolls back. */
class RolledBack extends Error {
  constructor(readonly failure: Failure) {
    super(failure.code);
  }
}

/**
 * Runs fn in one transaction that commits only when fn returns a success. A Failure rolls back
 * whatever fn wrote before it found the failure (no half-done state) and comes back as the result,
 * so the callers' expected failures stay results while the rollback stays the database's.
 */
export async function transactionResult<T>(
  db: Database,
  fn: (tx: Transaction) => Promise<Result<T>>,
  options?: TransactionOptions,
): Promise<Result<T>> {
  try {
    return await db.transaction(async (tx) => {
      const result = await fn(tx);
      if (!result.ok) throw new RolledBack(result);
      return result;
    }, options);
  } catch (error) {
    if (error instanceof RolledBack) return error.failure;
    throw error;
  }
}
