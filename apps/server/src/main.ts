import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { loadOrCreateSecrets } from './lib/secrets.ts';
import { createLogger } from './logger.ts';
import { InProcessPubSub } from './realtime/pubsub.ts';

/** A shutdown that takes longer than this (a stuck connection) ends the process anyway. */
const SHUTDOWN_TIMEOUT_MS = 10_000;

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const log = createLogger(config);
  fs.mkdirSync(config.dataDir, { recursive: true });
  const db = config.databaseUrl
    ? await openDatabase({ kind: 'postgres', url: config.databaseUrl, poolSize: config.databasePoolSize })
    : await openDatabase({ kind: 'pglite', dataDir: path.join(config.dataDir, 'pglite'), thread: config.pgliteThread });
  const applied = await migrate(db);
  log.info({ database: db.kind, applied }, 'database ready');

  const secrets = loadOrCreateSecrets(config.dataDir, {
    jwtSecret: config.jwtSecret,
    dataKey: config.dataEncryptionKey,
  });
  const { app } = await buildApp({ config, db, log, secrets, clock: () => new Date(), pubsub: new InProcessPubSub() });
  await app.listen({ port: config.port, host: config.host });
  log.info({ url: config.publicUrl }, 'platform ready');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref();
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
