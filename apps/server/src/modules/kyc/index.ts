import fastifyMultipart from '@fastify/multipart';
import { kycObjectStore } from '../../adapters/object-store/index.ts';
import type { AppContext, ModuleParts } from '../../context.ts';
import type { InsertNotifications } from '../notifications/index.ts';
import { kycRoutes } from './routes.ts';
import type { KycDeps } from './service.ts';
import { KYC_MULTIPART_LIMITS } from './uploads.ts';

export { dailyWithdrawalLimitUsd, kycTierOf } from './service.ts';

/**
 * KYC verification (docs/kyc.md): submissions with their documents, the account's status and the
 * compliance review that verifies an account. Multipart parsing is registered in this module's
 * scope only; every other route keeps answering JSON alone.
 */
export type KycUses = {
  /** Stores the review's notification (the notifications module's). */
  insertNotifications: InsertNotifications;
};

export function createKyc(context: AppContext, { insertNotifications }: KycUses): ModuleParts {
  const deps: KycDeps = {
    db: context.db,
    store: kycObjectStore(context.config),
    pubsub: context.pubsub,
    log: context.log,
    clock: context.clock,
    insertNotifications,
  };
  return {
    routes: async (scope) => {
      // Size limits are judged per file by the upload reader (FILE_TOO_LARGE), not thrown by the plugin.
      await scope.register(fastifyMultipart, { limits: KYC_MULTIPART_LIMITS, throwFileSizeLimit: false });
      kycRoutes(scope, context, deps);
    },
  };
}
