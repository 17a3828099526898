import { chainDepositSchema, sandboxChainDepositRequestSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { unwrap } from '../../../lib/errors.ts';
import { errorResponses } from '../../auth/index.ts';
import { recordSandboxDeposit } from '../chain.ts';
import type { PaymentsService } from '../payments.ts';
import { SANDBOX_TAGS } from './route-env.ts';

/** POST /sandbox/chain/deposits: someone outside sends coins to an address (no sign-in, like the chain). */
export function sendSandboxChainDepositRoute(scope: FastifyInstance, service: PaymentsService): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/sandbox/chain/deposits',
    {
      schema: {
        tags: SANDBOX_TAGS,
        summary: 'Sandbox chain: send coins to an address (seen with 0 confirmations)',
        body: sandboxChainDepositRequestSchema,
        response: { 201: chainDepositSchema, ...errorResponses(400) },
      },
    },
    async (request, reply) => reply.code(201).send(unwrap(await recordSandboxDeposit(service.deps, request.body))),
  );
}
