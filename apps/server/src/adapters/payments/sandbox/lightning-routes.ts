import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SandboxProvider } from '../sandbox.ts';
import { lightningPage, messagePage } from '../sandbox-pages.ts';
import { CONTROL_TEXT, html, paymentHashSchema, SANDBOX_TAGS } from './page-replies.ts';

/** The Lightning invoice page and its "Mark paid" button. */
export function sandboxLightningRoutes(scope: FastifyInstance, sandbox: SandboxProvider): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/sandbox/lightning/:paymentHash',
    {
      schema: {
        tags: SANDBOX_TAGS,
        summary: 'Sandbox Lightning invoice page (HTML)',
        params: z.object({ paymentHash: paymentHashSchema }),
      },
    },
    async (request, reply) => {
      const view = await sandbox.invoiceView(request.params.paymentHash);
      if (!view)
        return html(reply, 404, messagePage('Invoice not found', 'There is no sandbox invoice with this hash.'));
      return html(reply, 200, await lightningPage(view));
    },
  );

  app.post(
    '/sandbox/lightning/:paymentHash/pay',
    {
      schema: {
        tags: SANDBOX_TAGS,
        summary: 'Sandbox: mark a Lightning invoice paid (sends the webhook)',
        params: z.object({ paymentHash: paymentHashSchema }),
      },
    },
    async (request, reply) => {
      const { paymentHash } = request.params;
      const result = await sandbox.payInvoice(paymentHash);
      if (!result.ok) {
        const text = CONTROL_TEXT[result.error];
        const title = result.error === 'not_found' ? 'Invoice not found' : text.title;
        return html(reply, text.status, messagePage(title, text.text.replace('payment', 'invoice')));
      }
      return reply.redirect(`/sandbox/lightning/${paymentHash}`, 303);
    },
  );
}
