import { chainDepositSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { unwrap } from '../../../lib/errors.ts';
import { errorResponses } from '../../auth/index.ts';
import { chainDepositById } from '../chain.ts';
import type { PaymentsService } from '../payments.ts';
import { SANDBOX_TAGS } from './route-env.ts';

/** GET /sandbox/chain/deposits/:id: a sandbox chain transaction, with its confirmations. */
export function getSandboxChainDepositRoute(scope: FastifyInstance, service: PaymentsService): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/sandbox/chain/deposits/:id',
    {
      schema: {
        tags: SANDBOX_TAGS,
        summary: 'Sandbox chain: a transaction sent, with its confirmations',
        params: z.object({ id: z.uuid() }),
        response: { 200: chainDepositSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => unwrap(await chainDepositById(service.deps, request.params.id)),
  );
}
