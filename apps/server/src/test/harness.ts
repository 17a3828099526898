import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe } from 'vitest';
import { buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import { type Database, openDatabase } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { createLogger } from '../logger.ts';
import { checkFuturesInvariants } from '../modules/futures/invariants.ts';
import type { Services } from '../modules/index.ts';
import { checkLedgerInvariants } from '../modules/ledger/invariants.ts';
import { InProcessPubSub, type PubSub } from '../realtime/pubsub.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/** PGlite always; the real server as well when DATABASE_URL is set (CI sets it). */
export const databaseKinds: DatabaseKind[] = ['pglite', ...(process.env.DATABASE_URL ? (['postgres'] as const) : [])];

export type TestResponse<T = unknown> = { status: number; body: T; headers: Headers };
export type RequestOptions = { body?: unknown; token?: string; headers?: Record<string, string>; rawBody?: string };

export type TestServer = {
  app: FastifyInstance;
  /** What the modules were given. */
  context: AppContext;
  /** The modules as the composition root built them: tests reach workers and the payment gateway here. */
  services: Services;
  db: Database;
  config: Config;
  url: string;
  /** The server's pub/sub: tests publish on it as the price feed or the engine would. */
  pubsub: PubSub;
  /** Moves the server's clock; every module reads time through it. */
  clock: { now: Date; advance(ms: number): void };
  request<T = any>(method: string, urlPath: string, options?: RequestOptions): Promise<TestResponse<T>>;
  close(): Promise<void>;
};

/**
 * Boots the whole server in-process on a fresh database and a real port, so tests go through HTTP
 * as any client would. On PostgreSQL every server gets a schema of its own, dropped at close.
 */
export async function startTestServer(
  kind: DatabaseKind,
  environment: Record<string, string> = {},
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    ...environment,
  });
  const schema = `test_${crypto.randomBytes(6).toString('hex')}`;
  let db: Database;
  if (kind === 'postgres') {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set');
    const admin = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
    await admin.exec(`CREATE SCHEMA ${schema}`);
    await admin.close();
    db = await openDatabase({ kind: 'postgres', url, poolSize: 10, searchPath: schema });
  } else {
    // The server's default (a worker thread); PGLITE_THREAD=main runs the suite on the event loop.
    db = await openDatabase({ kind: 'pglite', thread: process.env.PGLITE_THREAD === 'main' ? 'main' : 'worker' });
  }
  await migrate(db);

  // The clock follows real time, shifted by whatever a test advanced it, so timestamps stay realistic.
  let offsetMs = 0;
  const clock = {
    get now() {
      return new Date(Date.now() + offsetMs);
    },
    advance(ms: number) {
      offsetMs += ms;
    },
  };

  const log = createLogger(config);
  const pubsub = new InProcessPubSub();
  const context: AppContext = {
    config,
    db,
    log,
    secrets: { jwtSecret: config.jwtSecret!, dataKey: crypto.randomBytes(32).toString('hex') },
    clock: () => clock.now,
    pubsub,
  };
  const { app, services } = await buildApp(context);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('server has no port');
  const url = `http://127.0.0.1:${address.port}`;

  return {
    app,
    context,
    services,
    db,
    config,
    url,
    pubsub,
    clock,
    async request(method, urlPath, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        headers['content-type'] ??= 'application/json';
        body = JSON.stringify(options.body);
      }
      const response = await fetch(`${url}${urlPath}`, { method, headers, ...(body !== undefined ? { body } : {}) });
      const text = await response.text();
      let parsed: unknown = text;
      if ((response.headers.get('content-type') ?? '').includes('application/json') && text) parsed = JSON.parse(text);
      return { status: response.status, body: parsed as any, headers: response.headers };
    },
    async close() {
      await app.close();
      // Every suite ends with sound books: whatever it did through the server must balance.
      const ledgerViolations = [...(await checkLedgerInvariants(db)), ...(await checkFuturesInvariants(db))];
      await db.close();
      if (kind === 'postgres' && process.env.DATABASE_URL) {
        const admin = await openDatabase({ kind: 'postgres', url: process.env.DATABASE_URL, poolSize: 1 });
        await admin.exec(`DROP SCHEMA ${schema} CASCADE`);
        await admin.close();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (ledgerViolations.length > 0) {
        const lines = ledgerViolations.map((violation) => `  ${violation.kind}: ${violation.details}`);
        throw new Error(`ledger invariants violated at the end of the suite:\n${lines.join('\n')}`);
      }
    },
  };
}

/**
 * Declares a suite once per database kind. The body receives a getter: the server exists only
 * once beforeAll has run.
 */
export function describeEachDatabase(
  name: string,
  body: (server: () => TestServer, kind: DatabaseKind) => void,
  environment: Record<string, string> = {},
): void {
  for (const kind of databaseKinds) {
    describe(`${name} [${kind}]`, () => {
      let server: TestServer | undefined;
      beforeAll(async () => {
        server = await startTestServer(kind, environment);
      });
      afterAll(async () => {
        await server?.close();
      });
      body(() => {
        if (!server) throw new Error('test server not started');
        return server;
      }, kind);
    });
  }
}
