import {
  createTransferRequestSchema,
  transferHistoryQuerySchema,
  transferHistoryResponseSchema,
  transferSchema,
  transferStatusResponseSchema,
} from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../context.ts';
import { unwrap } from '../../../lib/errors.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import { createTransfer, getTransfer, type TransferSettler, transferHistory, type WalletDeps } from '../transfers.ts';

const tags = ['wallet'];
const transferIdParamsSchema = z.object({ id: z.uuid() });

/** Spec §7.3's transfer calls: send, follow one, list them. */
export function transferRoutes(
  scope: FastifyInstance,
  context: AppContext,
  deps: WalletDeps,
  settler: TransferSettler,
): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const signedIn = { onRequest: authenticate(context) };

  app.post(
    '/api/v1/wallet/transfer',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Send funds to another user by username; held at once, settled right after',
        security: bearerAuth,
        body: createTransferRequestSchema,
        headers: z.object({ 'idempotency-key': z.string().max(64).optional() }),
        response: { 200: transferSchema, 201: transferSchema, ...errorResponses(400, 401, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const result = unwrap(
        await createTransfer(
          deps,
          settler,
          currentAccount(request).id,
          request.body,
          request.headers['idempotency-key'],
        ),
      );
      return reply.code(result.created ? 201 : 200).send(result.transfer);
    },
  );

  app.get(
    '/api/v1/wallet/transfer/:id/status',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'A transfer the caller sent or received (the status popup polls it)',
        security: bearerAuth,
        params: transferIdParamsSchema,
        response: { 200: transferStatusResponseSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ({ result: unwrap(await getTransfer(deps, currentAccount(request).id, request.params.id)) }),
  );

  app.get(
    '/api/v1/wallet/transfers/history',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Transfers sent and received, newest first',
        security: bearerAuth,
        querystring: transferHistoryQuerySchema,
        response: { 200: transferHistoryResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => transferHistory(deps, currentAccount(request).id, request.query.limit, request.query.page),
  );
}
