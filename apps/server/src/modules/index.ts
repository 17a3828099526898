import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { accountsModule } from './accounts/routes.ts';
import { authModule } from './auth/index.ts';
import { healthRoutes } from './health/routes.ts';

/** A feature module: registers its routes (and hooks) given the shared context. */
export type ModuleRegistrar = (app: FastifyInstance, context: AppContext) => Promise<void> | void;

/** Every feature module, in registration order. */
export const modules: ModuleRegistrar[] = [healthRoutes, authModule, accountsModule];
