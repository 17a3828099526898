import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { type Database, openDatabase } from './database.ts';

/**
 * The database an operator command works on: the one the server is configured with (DATABASE_URL,
 * or the PGlite under DATA_DIR), never migrated by the command. Null, with the reason written,
 * when there is none or when it lacks `accounts.<column>` (the server has not migrated it yet).
 * PGlite is a single-process database: the server must be stopped while a command uses it.
 */
export async function openOperatorDatabase(
  environment: Record<string, string | undefined>,
  accountsColumn: string,
  write: (line: string) => void,
): Promise<Database | null> {
  const config = loadConfig(environment);
  const pgliteDir = path.join(config.dataDir, 'pglite');
  if (!config.databaseUrl && !fs.existsSync(pgliteDir)) {
    write(`No database at ${pgliteDir} (set DATA_DIR or DATABASE_URL).`);
    return null;
  }
  const db: Database = config.databaseUrl
    ? await openDatabase({ kind: 'postgres', url: config.databaseUrl, poolSize: 1 })
    : await openDatabase({ kind: 'pglite', dataDir: pgliteDir });
  const migrated = await db.query(
    `SELECT 1 FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = 'accounts' AND column_name = $1`,
    [accountsColumn],
  );
  if (migrated.rowCount === 0) {
    await db.close();
    write('The accounts table is absent or not migrated: start the server once to migrate it.');
    return null;
  }
  return db;
}
