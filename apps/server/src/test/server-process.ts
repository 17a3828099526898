import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type Database, openDatabase } from '../db/database.ts';

/**
 * The real server as a child process (`node --import tsx apps/server/src/main.ts`) on a fresh
 * PGlite data directory or a fresh PostgreSQL database: for tests that must kill it (crash
 * recovery) and for the benchmarks under bench/.
 */

export const root = path.resolve(import.meta.dirname, '../../../..');
export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export type Target = {
  name: 'pglite' | 'postgres';
  /** The database name on a PostgreSQL server. */
  database?: string;
  env: Record<string, string>;
  /** Creates the database (PostgreSQL) before the first start. */
  prepare: () => Promise<void>;
  /** Creates the database (PostgreSQL) if need be and opens it while the server is down. */
  open: () => Promise<Database>;
  cleanup: () => Promise<void>;
};

export function pgliteTarget(): Target {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-server-'));
  return {
    name: 'pglite',
    env: { DATA_DIR: dataDir },
    prepare: async () => {},
    open: () => openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') }),
    cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}

/**
 * A fresh database on the PostgreSQL server at `url`. With logStatements (a diagnostic), every
 * statement on that database is logged with its duration to the server's log; `settings` are
 * ALTER DATABASE ... SET parameters of that database only (diagnostics such as synchronous_commit).
 */
export function postgresTarget(
  url: string,
  options: { logStatements?: boolean; settings?: Record<string, string> } = {},
): Target {
  const database = `server_${crypto.randomBytes(5).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-server-pg-'));
  const databaseUrl = url.replace(/\/[^/?]*(\?.*)?$/, `/${database}$1`);
  let created = false;
  const create = async () => {
    if (created) return;
    const admin = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
    await admin.exec(`CREATE DATABASE ${database}`);
    const settings = { ...options.settings, ...(options.logStatements ? { log_min_duration_statement: '0' } : {}) };
    for (const [name, value] of Object.entries(settings)) {
      if (!/^[a-z_]+$/.test(name) || !/^[\w.]+$/.test(value)) throw new Error(`bad setting ${name}=${value}`);
      await admin.exec(`ALTER DATABASE ${database} SET ${name} = '${value}'`);
    }
    await admin.close();
    created = true;
  };
  return {
    name: 'postgres',
    database,
    env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
    prepare: create,
    open: async () => {
      await create();
      return openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 2 });
    },
    cleanup: async () => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (!created) return;
      const admin = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
      await admin.exec(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.close();
    },
  };
}

export class ServerProcess {
  child: ChildProcess | null = null;
  url = '';
  port = 0;

  /** Starts `node --import tsx apps/server/src/main.ts` and waits for /health. */
  async start(target: Target, env: Record<string, string> = {}, nodeFlags: string[] = []): Promise<void> {
    this.port = await freePort();
    const host = env.HOST ?? '127.0.0.1';
    this.url = `http://127.0.0.1:${this.port}`;
    const environment = { ...process.env };
    delete environment.DATABASE_URL;
    this.child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: root,
      env: { ...environment, PORT: String(this.port), HOST: host, ...target.env, ...env },
      // SERVER_LOG_FILE (a diagnostic): the server's log goes to that file instead of nowhere.
      stdio: [
        'ignore',
        process.env.SERVER_LOG_FILE ? fs.openSync(process.env.SERVER_LOG_FILE, 'a') : 'ignore',
        'inherit',
      ],
    });
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`server exited with ${this.child.exitCode}`);
      const healthy = await fetch(`${this.url}/health`)
        .then((response) => response.ok)
        .catch(() => false);
      if (healthy) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error('server did not start');
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * SIGTERM: the server drains its markets, writes snapshots and exits (and writes a CPU profile
   * when started with --cpu-prof). SIGKILL: a crash.
   */
  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (child === null || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
    this.child = null;
  }

  /** A plain request (setup only: fetch, one connection per call). */
  async request(method: string, urlPath: string, token?: string, body?: unknown) {
    const response = await fetch(`${this.url}${urlPath}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, unknown> };
  }
}
