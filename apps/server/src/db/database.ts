import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export type Row = Record<string, unknown>;
export type QueryResult<T extends Row = Row> = { rows: T[]; rowCount: number };

/**
 * prepare: keep the statement parsed and planned on each connection that runs it (a hot statement
 * run many times with the same text; PostgreSQL only, PGlite ignores it).
 */
export type QueryOptions = { prepare?: boolean };

/** What both a connection and a transaction can do. */
export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<T>>;
}

/** The name of a prepared statement: one per distinct text. */
const statementNames = new Map<string, string>();
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = `s_${crypto.createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
    if (statementNames.size > 1000) statementNames.clear();
    statementNames.set(sql, name);
  }
  return name;
}

/** A transaction can also run a whole script (migrations). */
export interface Transaction extends Queryable {
  exec(sql: string): Promise<void>;
  /** The database the transaction runs on. */
  readonly database: Database;
  /** Runs fn once the transaction has committed (never when it rolls back), in registration order. */
  afterCommit(fn: () => void): void;
}

/** The database behind a connection or a transaction. */
export function databaseOf(q: Queryable): Database | undefined {
  if ('database' in q) return (q as Transaction).database;
  if ('transaction' in q) return q as Database;
  return undefined;
}

/** Runs the callbacks registered with afterCommit; one that throws does not stop the others. */
function runAfterCommit(callbacks: readonly (() => void)[]): void {
  for (const callback of callbacks) {
    try {
      callback();
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}

export type IsolationLevel = 'read committed' | 'repeatable read' | 'serializable';
export type TransactionOptions = {
  isolation?: IsolationLevel;
  /** Retries on serialization failure and deadlock, which only a real server produces. */
  retries?: number;
};

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Runs a script of several statements with no parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);
const DEFAULT_TRANSACTION_RETRIES = 3;

/** PostgreSQL error with its SQLSTATE, as both drivers raise it. */
export function sqlState(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (sqlState(error) !== '23505') return false;
  if (constraint === undefined) return true;
  return typeof error === 'object' && error !== null && 'constraint' in error && error.constraint === constraint;
}

const INT8_OID = 20;

class PostgresDatabase implements Database {
  readonly kind = 'postgres' as const;
  constructor(private readonly pool: pg.Pool) {}

  async query<T extends Row>(
    sql: string,
    params: readonly unknown[] = [],
    options: QueryOptions = {},
  ): Promise<QueryResult<T>> {
    const result = options.prepare
      ? await this.pool.query({ name: statementName(sql), text: sql, values: params as unknown[] })
      : await this.pool.query(sql, params as unknown[]);
    return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
  }

  async transaction<T>(fn: (tx: Transaction) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const retries = options.retries ?? DEFAULT_TRANSACTION_RETRIES;
    for (let attempt = 0; ; attempt++) {
      const client = await this.pool.connect();
      const committed: (() => void)[] = [];
      try {
        await client.query(`BEGIN ISOLATION LEVEL ${(options.isolation ?? 'read committed').toUpperCase()}`);
        const tx: Transaction = {
          database: this,
          query: async <R extends Row>(sql: string, params: readonly unknown[] = []) => {
            const result = await client.query(sql, params as unknown[]);
            return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
          },
          exec: async (sql: string) => {
            await client.query(sql);
          },
          afterCommit: (callback) => {
            committed.push(callback);
          },
        };
        const value = await fn(tx);
        await client.query('COMMIT');
        runAfterCommit(committed);
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        if (attempt < retries && RETRYABLE_SQLSTATES.has(sqlState(error) ?? '')) continue;
        throw error;
      } finally {
        client.release();
      }
    }
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/**
 * PGlite reports affected rows of writes only (0 for a SELECT); the pg driver counts returned
 * rows too. The larger of the two is what pg would say in every case.
 */
function pgliteRowCount(result: { rows: unknown[]; affectedRows?: number }): number {
  return Math.max(result.rows.length, result.affectedRows ?? 0);
}

class PgliteDatabase implements Database {
  readonly kind = 'pglite' as const;
  constructor(private readonly db: PGlite) {}

  async query<T extends Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
    const result = await this.db.query<T>(sql, params as unknown[]);
    return { rows: result.rows, rowCount: pgliteRowCount(result) };
  }

  // PGlite has one connection and runs transactions one after another, so isolation and retries
  // never come into play; the options are accepted so callers stay driver-agnostic.
  async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const committed: (() => void)[] = [];
    const value = await this.db.transaction(async (inner) =>
      fn({
        database: this,
        query: async <R extends Row>(sql: string, params: readonly unknown[] = []) => {
          const result = await inner.query<R>(sql, params as unknown[]);
          return { rows: result.rows, rowCount: pgliteRowCount(result) };
        },
        exec: async (sql: string) => {
          await inner.exec(sql);
        },
        afterCommit: (callback) => {
          committed.push(callback);
        },
      }),
    );
    runAfterCommit(committed);
    return value;
  }

  async exec(sql: string): Promise<void> {
    await this.db.exec(sql);
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}

type WorkerAnswer = { id: number; result?: unknown; error?: Record<string, unknown> & { message: string } };

/** A PostgreSQL error raised in the worker, with the fields callers look at (code, constraint…). */
function errorFromWorker(plain: Record<string, unknown> & { message: string }): Error {
  return Object.assign(new Error(plain.message), plain);
}

/**
 * PGlite in a worker thread (pglite-worker.mjs): the same database and the same one-transaction-at-a-
 * time behaviour as PgliteDatabase, but PostgreSQL's WebAssembly runs on another thread, so a query
 * no longer stops every request and socket of the server while it runs. Each call is one message.
 */
class PgliteWorkerDatabase implements Database {
  readonly kind = 'pglite' as const;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  constructor(private readonly worker: Worker) {
    worker.on('message', (answer: WorkerAnswer) => {
      const call = this.pending.get(answer.id);
      if (!call) return;
      this.pending.delete(answer.id);
      if (answer.error) call.reject(errorFromWorker(answer.error));
      else call.resolve(answer.result);
    });
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', () => this.failAll(new Error('the database worker stopped')));
  }

  private failAll(error: Error): void {
    for (const call of this.pending.values()) call.reject(error);
    this.pending.clear();
  }

  private call<R>(message: Record<string, unknown>): Promise<R> {
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  private async run<T extends Row>(sql: string, params: readonly unknown[], tx?: number): Promise<QueryResult<T>> {
    const result = await this.call<{ rows: T[]; affectedRows: number }>({ op: 'query', sql, params, tx });
    return { rows: result.rows, rowCount: pgliteRowCount(result) };
  }

  query<T extends Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
    return this.run<T>(sql, params);
  }

  async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const committed: (() => void)[] = [];
    const txId = await this.call<number>({ op: 'begin' });
    let value: T;
    try {
      value = await fn({
        database: this,
        query: <R extends Row>(sql: string, params: readonly unknown[] = []) => this.run<R>(sql, params, txId),
        exec: async (sql: string) => {
          await this.call({ op: 'exec', sql, tx: txId });
        },
        afterCommit: (callback) => {
          committed.push(callback);
        },
      });
    } catch (error) {
      await this.call({ op: 'rollback', tx: txId }).catch(() => undefined);
      throw error;
    }
    await this.call({ op: 'commit', tx: txId });
    runAfterCommit(committed);
    return value;
  }

  async exec(sql: string): Promise<void> {
    await this.call({ op: 'exec', sql });
  }

  async close(): Promise<void> {
    await this.call({ op: 'close' }).catch(() => undefined);
    await this.worker.terminate();
  }
}

/** Starts the worker and waits until its database is open. */
async function openPgliteWorker(dataDir: string | undefined): Promise<Database> {
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: { dataDir } });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', (message: { ready: boolean; error?: Record<string, unknown> & { message: string } }) =>
      message.ready ? resolve() : reject(errorFromWorker(message.error ?? { message: 'database worker failed' })),
    );
    worker.once('error', reject);
  });
  return new PgliteWorkerDatabase(worker);
}

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number; searchPath?: string }
  | {
      kind: 'pglite';
      dataDir?: string;
      /** 'worker': PostgreSQL's WebAssembly runs on a worker thread instead of the event loop. */
      thread?: 'main' | 'worker';
    };

/**
 * Opens the database: PostgreSQL through a pool, or embedded PGlite (on disk under dataDir, or in
 * memory without one). Both return int8 as bigint and NUMERIC as an exact decimal string.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8_OID
            ? (value: string) => BigInt(value)
            : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    const database = new PostgresDatabase(pool);
    await database.query('SELECT 1');
    return database;
  }
  if (options.dataDir) fs.mkdirSync(path.dirname(options.dataDir), { recursive: true });
  if (options.thread === 'worker') return openPgliteWorker(options.dataDir);
  const db = await PGlite.create(options.dataDir);
  return new PgliteDatabase(db);
}
