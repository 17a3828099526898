import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../config.ts';
import { type Database, openDatabase } from '../../db/database.ts';
import { checkLedgerInvariants, hasLedgerSchema } from './invariants.ts';

/** Exit codes of `npm run ledger:check`. */
export const LEDGER_CHECK_EXIT = { sound: 0, violations: 1, cannotCheck: 2 } as const;

/**
 * The ledger:check command: opens the database the server is configured with (DATABASE_URL, or
 * the PGlite under DATA_DIR), checks the ledger's invariants, and reports. It never migrates or
 * writes: a database without the ledger's tables is reported as such.
 *
 * PGlite is a single-process database: stop the server before checking its data directory.
 */
export async function runLedgerCheck(
  environment: Record<string, string | undefined>,
  write: (line: string) => void,
  /** Further checks composed by the caller (the futures invariants): the ledger imports no feature module. */
  extraChecks: readonly ((db: Database) => Promise<readonly { kind: string; details: string }[]>)[] = [],
): Promise<number> {
  const config = loadConfig(environment);
  const pgliteDir = path.join(config.dataDir, 'pglite');
  if (!config.databaseUrl && !fs.existsSync(pgliteDir)) {
    write(`No database at ${pgliteDir} (set DATA_DIR or DATABASE_URL).`);
    return LEDGER_CHECK_EXIT.cannotCheck;
  }
  const db: Database = config.databaseUrl
    ? await openDatabase({ kind: 'postgres', url: config.databaseUrl, poolSize: 1 })
    : await openDatabase({ kind: 'pglite', dataDir: pgliteDir });
  try {
    const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite at ${pgliteDir}`;
    if (!(await hasLedgerSchema(db))) {
      write(`The ledger's tables are absent from ${where}: start the server once to migrate it.`);
      return LEDGER_CHECK_EXIT.cannotCheck;
    }
    const violations: { kind: string; details: string }[] = [...(await checkLedgerInvariants(db))];
    for (const check of extraChecks) violations.push(...(await check(db)));
    if (violations.length > 0) {
      write(`Ledger invariants violated (${violations.length}) in ${where}:`);
      for (const violation of violations) write(`  ${violation.kind}: ${violation.details}`);
      return LEDGER_CHECK_EXIT.violations;
    }
    const counts = await db.query<{ accounts: string; entries: string; postings: string }>(
      `SELECT (SELECT count(*) FROM ledger_accounts)::text AS accounts,
        (SELECT count(*) FROM ledger_entries)::text AS entries,
        (SELECT count(*) FROM ledger_postings)::text AS postings`,
    );
    const { accounts = '0', entries = '0', postings = '0' } = counts.rows[0] ?? {};
    write(
      `Ledger sound in ${where}: no violations (accounts: ${accounts}, entries: ${entries}, postings: ${postings}).`,
    );
    return LEDGER_CHECK_EXIT.sound;
  } finally {
    await db.close();
  }
}
