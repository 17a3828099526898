import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './test/harness.ts';

const serverDir = path.resolve(import.meta.dirname, '..');

describe('process start', () => {
  it('exits 1 with a message naming each bad setting', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: { ...process.env, PORT: 'not-a-port', DATABASE_URL: 'mysql://nope', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toContain('PORT');
    expect(result.stderr).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
  });
});

describe('graceful shutdown', () => {
  it('stops serving and exits 0 on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-stop-'));
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        DATABASE_URL: '',
      },
      stdio: 'ignore',
    });
    let gone = false;
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => {
        gone = true;
        resolve(code);
      }),
    );
    // A first start migrates a new database and generates the chart history: on a loaded machine
    // that took over 20 s, so wait on a deadline (and stop waiting if the process died).
    const deadline = Date.now() + 90_000;
    let healthy = false;
    while (!healthy && !gone && Date.now() < deadline) {
      healthy = await fetch(`http://127.0.0.1:${port}/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (!healthy) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    try {
      expect(healthy).toBe(true);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (!gone) child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('serving the client', () => {
  let server: TestServer;
  const distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-dist-'));

  beforeAll(async () => {
    fs.mkdirSync(path.join(distDir, 'assets'));
    fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><head><title>client</title></head>');
    fs.writeFileSync(path.join(distDir, 'assets', 'app-abc123.js'), 'export {};');
    fs.mkdirSync(path.join(distDir, '.vite'));
    fs.writeFileSync(
      path.join(distDir, '.vite', 'manifest.json'),
      JSON.stringify({
        'index.html': { file: 'assets/app-abc123.js', isEntry: true },
        'src/features/trade/trade-screen.tsx': { file: 'assets/trade-screen-abc123.js' },
      }),
    );
    server = await startTestServer('pglite', { WEB_DIST_DIR: distDir });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(distDir, { recursive: true, force: true });
  });

  it('answers index.html for page paths (SPA fallback)', async () => {
    for (const page of ['/', '/trade', '/settings', '/no/such/page']) {
      const response = await server.request('GET', page);
      expect(response.status, page).toBe(200);
      expect(response.body).toContain('<title>client</title>');
      expect(response.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('names the landing screen’s code in the page, so it loads alongside the shell', async () => {
    const trade = await server.request('GET', '/trade?pair=ETH/USD');
    expect(trade.body).toContain('<link rel="modulepreload" crossorigin href="/assets/trade-screen-abc123.js">');
    const settings = await server.request('GET', '/settings');
    expect(settings.body).not.toContain('modulepreload');
  });

  it('caches hashed assets for good', async () => {
    const response = await server.request('GET', '/assets/app-abc123.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('immutable');
  });

  it('never answers index.html for an API path', async () => {
    const response = await server.request('GET', '/v1/unknown');
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });
});
