import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

const root = path.resolve(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
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

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server did not become healthy at ${url} within ${timeoutMs} ms`);
}

type Environment = Record<string, string | undefined>;

function startServer(environment: Environment): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: environment,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** The operator's own command (npm run grant-role), run on the stopped server's data directory. */
async function grantRole(environment: Environment, email: string, role: string): Promise<void> {
  const command = spawn(
    process.execPath,
    ['--import', 'tsx', 'apps/server/src/modules/kyc/grant-role-command.ts', email, role],
    { cwd: root, env: environment, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const code = await new Promise<number | null>((resolve) => command.once('exit', resolve));
  if (code !== 0) throw new Error(`grant-role ${email} ${role} exited with ${code}`);
}

/**
 * An administrator, made as an operator makes one: the account registers through the API, then the
 * grant-role command sets its role. The embedded database is one process's, so the server stops for
 * the command and starts again on the same data directory (what the suite then runs against).
 */
async function makeAdmin(url: string, environment: Environment, child: ChildProcess) {
  const id = crypto.randomBytes(4).toString('hex');
  const admin = { email: `admin-${id}@example.com`, password: `Str0ng!${id}Adm` };
  const response = await fetch(`${url}/v1/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...admin, first_name: 'Grace', last_name: 'Hopper', terms_accepted: true }),
  });
  if (!response.ok) throw new Error(`admin registration -> ${response.status} ${await response.text()}`);
  await stopServer(child);
  await grantRole(environment, admin.email, 'admin');
  return admin;
}

/**
 * Starts the platform exactly as `npm start` runs it (built client, embedded PGlite in a fresh
 * data directory), on a free port, for the whole browser run, with one administrator account.
 */
export default async function setup(project: TestProject) {
  if (!fs.existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    throw new Error('apps/web/dist is missing: run `npm run build` first (npm run test:e2e does)');
  }
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-e2e-'));
  const url = `http://localhost:${port}`;
  const inherited = { ...process.env };
  // The browser suite proves the embedded default; the server suite covers PostgreSQL.
  delete inherited.DATABASE_URL;
  const environment: Environment = {
    ...inherited,
    NODE_ENV: 'production',
    // The sandbox provider, on purpose: production refuses it otherwise.
    ALLOW_SANDBOX_IN_PRODUCTION: 'true',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    LOG_PRETTY: 'false',
    // Every test signs in from the same address; per-account limits stay on.
    RATE_LIMIT_ENABLED: 'false',
    // The sandbox payment provider confirms deposits and walks payouts quickly for the wallet flows.
    SANDBOX_CONFIRM_DELAY_MS: '1500',
    SANDBOX_PAYOUT_STEP_MS: '500',
    // The house bots are on, as on any fresh install; BTC/USD trades every 2 s on average (the
    // default is every 5 s), so a test waiting 30 s for a print never waits on luck.
    MARKET_TAKER_TRADES_PER_MINUTE: '30',
  };
  const first = startServer(environment);
  await waitForHealth(url, first, 180_000);
  const admin = await makeAdmin(url, environment, first);
  const child = startServer(environment);
  await waitForHealth(url, child, 180_000);
  project.provide('baseUrl', url);
  project.provide('dataDir', dataDir);
  project.provide('admin', admin);

  return async () => {
    await stopServer(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    /** An administrator's sign-in (made with the grant-role command). */
    admin: { email: string; password: string };
  }
}
