import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../../http/openapi.ts';
import { fail, ok, type Result, unwrap } from '../../../lib/errors.ts';
import type { SandboxProvider } from '../sandbox.ts';
import type { PayoutState } from '../types.ts';
import { idSchema, SANDBOX_TAGS } from './page-replies.ts';
import type { ControlResult } from './rows.ts';

const payoutSchema = z.object({
  providerReference: z.string(),
  batchId: z.string(),
  reference: z.string().nullable(),
  status: z.string(),
  hash: z.string().nullable(),
  error: z.string().nullable(),
  updatedAt: z.string(),
});

/** The payout control (JSON): make a payout that is not final yet fail. */
export function sandboxPayoutRoutes(scope: FastifyInstance, sandbox: SandboxProvider): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/sandbox/payouts/:id/fail',
    {
      schema: {
        tags: SANDBOX_TAGS,
        summary: 'Sandbox control: make a payout that is not final yet fail (sends the webhook)',
        params: z.object({ id: idSchema }),
        response: { 200: z.object({ payout: payoutSchema }), ...errorResponses(400, 404, 409) },
      },
    },
    async (request) => {
      const payout = unwrap(payoutControlResult(await sandbox.failPayout(request.params.id)));
      return {
        payout: {
          providerReference: payout.providerReference,
          batchId: payout.batchId,
          reference: payout.reference,
          status: payout.status,
          hash: payout.hash,
          error: payout.error,
          updatedAt: payout.updatedAt.toISOString(),
        },
      };
    },
  );
}

/** The control's outcome in the API's words: an unknown payout is 404, a final one 409. */
function payoutControlResult(result: ControlResult<PayoutState>): Result<PayoutState> {
  if (result.ok) return ok(result.value);
  if (result.error === 'not_found') return fail('PAYMENT_NOT_FOUND', { message: 'Payout not found' });
  return fail('PAYMENT_NOT_PENDING', { message: 'This payout is already final' });
}
