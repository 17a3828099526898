import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { Secrets } from './lib/secrets.ts';
import type { Logger } from './logger.ts';
import type { PubSub } from './realtime/pubsub.ts';

/** What every module is given at registration: no module reaches for globals. */
export type AppContext = {
  config: Config;
  db: Database;
  log: Logger;
  secrets: Secrets;
  /** The one clock of the server; tests replace it to move time. */
  clock: () => Date;
  /** Events between modules (price feed -> socket gateway). */
  pubsub: PubSub;
};
