import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import { LEDGER_CHECK_EXIT, runLedgerCheck } from './check-command.ts';
import { postEntries } from './service.ts';

// The command opens its own database, as an operator would: an on-disk PGlite under DATA_DIR.
describe('ledger:check command', () => {
  let dataDir: string;
  const environment = () => ({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir });
  const run = async () => {
    const lines: string[] = [];
    const code = await runLedgerCheck(environment(), (line) => lines.push(line));
    return { code, lines };
  };
  const withDatabase = async (fn: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<void>) => {
    const db = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
    try {
      await fn(db);
    } finally {
      await db.close();
    }
  };

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-check-'));
  });
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('says so when there is no database, or no ledger in it, and writes nothing', async () => {
    expect(await run()).toEqual({
      code: LEDGER_CHECK_EXIT.cannotCheck,
      lines: [`No database at ${path.join(dataDir, 'pglite')} (set DATA_DIR or DATABASE_URL).`],
    });
    await withDatabase(async () => {});
    const result = await run();
    expect(result.code).toBe(LEDGER_CHECK_EXIT.cannotCheck);
    expect(result.lines).toEqual([
      `The ledger's tables are absent from PGlite at ${path.join(dataDir, 'pglite')}: start the server once to migrate it.`,
    ]);
  });

  it('reports sound books in one line, and lists violations with exit code 1', async () => {
    await withDatabase(async (db) => {
      await migrate(db);
      await db.transaction((tx) =>
        postEntries(tx, [
          {
            kind: 'funding',
            reference: 'check-1',
            postings: [
              { owner: { kind: 'system', name: 'custody' }, currency: 'USD', bucket: 'available', amount: '-100' },
              { owner: { kind: 'system', name: 'fees' }, currency: 'USD', bucket: 'available', amount: '100' },
            ],
          },
        ]),
      );
    });
    const sound = await run();
    expect(sound.code).toBe(LEDGER_CHECK_EXIT.sound);
    expect(sound.lines).toEqual([
      `Ledger sound in PGlite at ${path.join(dataDir, 'pglite')}: no violations (accounts: 2, entries: 1, postings: 2).`,
    ]);

    await withDatabase(async (db) => {
      await db.query(`UPDATE ledger_accounts SET available = 99.5 WHERE system_name = 'fees'`);
    });
    const broken = await run();
    expect(broken.code).toBe(LEDGER_CHECK_EXIT.violations);
    expect(broken.lines[0]).toMatch(/^Ledger invariants violated \(1\)/);
    expect(broken.lines[1]).toMatch(/^ {2}balance_mismatch: ledger account \d+ \(system fees, USD\): available 99\.5/);
  });
});
