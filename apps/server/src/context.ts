import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { Secrets } from './lib/secrets.ts';
import type { Logger } from './logger.ts';
import type { PubSub } from './realtime/pubsub.ts';

/**
 * What every module is given. The services of other modules are not in here: the composition root
 * (modules/index.ts) hands each module's factory the services it uses, and no module finds another
 * through this context or a registry. Two things are still kept per database rather than handed
 * over: auth's caches of account states and session versions, which every route guard and the
 * socket gateway read (`authenticate(context)`, `accountStates(context)`), and the ledger's
 * available-balance listeners.
 */
export type AppContext = {
  config: Config;
  db: Database;
  log: Logger;
  secrets: Secrets;
  /** The one clock of the server; tests replace it to move time. */
  clock: () => Date;
  /** Events to the socket gateway (prices, orders, balances, notifications). */
  pubsub: PubSub;
};

/**
 * What a module hands the app besides its service: its routes, registered in a Fastify scope of
 * their own, and where it runs workers, when they start and stop.
 */
export type ModuleParts = {
  routes?: (scope: FastifyInstance) => void | Promise<void>;
  /** When the server is ready (onReady, in registration order). */
  start?: () => void | Promise<void>;
  /** When the server closes (onClose, in the reverse order of registration). */
  stop?: () => Promise<void>;
  /** Once the server listens (onListen), with the address it listens on. */
  listening?: (address: AddressInfo | string | null) => void;
};
