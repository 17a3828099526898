import { type ChildProcess, spawn } from 'node:child_process';
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

/**
 * Starts the platform exactly as `npm start` runs it (built client, embedded PGlite in a fresh
 * data directory), on a free port, for the whole browser run.
 */
export default async function setup(project: TestProject) {
  if (!fs.existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    throw new Error('apps/web/dist is missing: run `npm run build` first (npm run test:e2e does)');
  }
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-e2e-'));
  const url = `http://localhost:${port}`;
  const environment = { ...process.env };
  // The browser suite proves the embedded default; the server suite covers PostgreSQL.
  delete environment.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...environment,
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
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitForHealth(url, child, 180_000);
  project.provide('baseUrl', url);
  project.provide('dataDir', dataDir);

  return async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}
