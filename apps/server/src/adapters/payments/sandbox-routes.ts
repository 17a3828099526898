import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../http/openapi.ts';
import { AppError } from '../../lib/errors.ts';
import type { SandboxProvider } from './sandbox.ts';
import { cardCheckoutPage, checkoutPage, lightningPage, messagePage } from './sandbox-pages.ts';

/**
 * The sandbox provider's own pages and controls (registered only when PAYMENT_PROVIDER=sandbox):
 * what a real provider's hosted checkout, Lightning wallet and back office would do.
 *
 * GET  /sandbox/checkout/:id                      the hosted checkout page (HTML)
 * POST /sandbox/checkout/:id/{pay|underpay|decline|expire} the page's buttons; 303 to successUrl / cancelUrl
 *                                                  (decline: card checkouts only)
 * GET  /sandbox/lightning/:paymentHash            an invoice page with a "Mark paid" button (HTML)
 * POST /sandbox/lightning/:paymentHash/pay        settles the invoice; 303 back to its page
 * POST /sandbox/payouts/:id/fail                  makes a payout not final yet fail (JSON)
 */

const tags = ['sandbox'];
const idSchema = z.string().min(1).max(200);
const paymentHashSchema = z.string().regex(/^[0-9a-f]{64}$/, { error: 'must be 64 lower-case hex characters' });
const payoutSchema = z.object({
  providerReference: z.string(),
  batchId: z.string(),
  reference: z.string().nullable(),
  status: z.string(),
  hash: z.string().nullable(),
  error: z.string().nullable(),
  updatedAt: z.string(),
});

const CONTROL_TEXT = {
  not_found: { status: 404, title: 'Payment not found', text: 'There is no sandbox payment with this id.' },
  not_pending: { status: 409, title: 'Nothing to do', text: 'This payment can no longer be changed.' },
  expired: { status: 409, title: 'Payment expired', text: 'This payment has expired.' },
} as const;

export function sandboxRoutes(scope: FastifyInstance, sandbox: SandboxProvider): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  // The pages' buttons are plain HTML forms; they post no fields, so the body is not read.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) =>
    done(null, {}),
  );

  app.get(
    '/sandbox/checkout/:id',
    { schema: { tags, summary: 'Sandbox hosted checkout page (HTML)', params: z.object({ id: idSchema }) } },
    async (request, reply) => {
      const view = await sandbox.checkoutView(request.params.id);
      if (!view) return html(reply, 404, messagePage(CONTROL_TEXT.not_found.title, CONTROL_TEXT.not_found.text));
      reply.header('content-security-policy', checkoutPolicy([view.successUrl, view.cancelUrl]));
      const body = view.payMethod === 'card' ? cardCheckoutPage(view, sandbox.card) : await checkoutPage(view);
      return html(reply, 200, body);
    },
  );

  app.post(
    '/sandbox/checkout/:id/:action',
    {
      schema: {
        tags,
        summary: 'Sandbox checkout buttons: pay in full, pay half, decline the card, or let the payment expire',
        params: z.object({ id: idSchema, action: z.enum(['pay', 'underpay', 'decline', 'expire']) }),
      },
    },
    async (request, reply) => {
      const { id, action } = request.params;
      const result =
        action === 'expire'
          ? await sandbox.expire(id)
          : action === 'decline'
            ? await sandbox.decline(id)
            : await sandbox.pay(id, action === 'pay' ? 'full' : 'half');
      if (!result.ok) {
        const text = CONTROL_TEXT[result.error];
        return html(reply, text.status, messagePage(text.title, text.text));
      }
      return reply.redirect(result.value.redirectTo, 303);
    },
  );

  app.get(
    '/sandbox/lightning/:paymentHash',
    {
      schema: {
        tags,
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
        tags,
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

  app.post(
    '/sandbox/payouts/:id/fail',
    {
      schema: {
        tags,
        summary: 'Sandbox control: make a payout that is not final yet fail (sends the webhook)',
        params: z.object({ id: idSchema }),
        response: { 200: z.object({ payout: payoutSchema }), ...errorResponses(400, 404, 409) },
      },
    },
    async (request) => {
      const result = await sandbox.failPayout(request.params.id);
      if (!result.ok) {
        if (result.error === 'not_found') throw new AppError('PAYMENT_NOT_FOUND', { message: 'Payout not found' });
        throw new AppError('PAYMENT_NOT_PENDING', { message: 'This payout is already final' });
      }
      const payout = result.value;
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

/**
 * The checkout page's own policy: no script at all, inline styles and the data: QR image only, and
 * forms that may end on the caller's success and cancel pages. A browser checks form-action on the
 * redirect that follows a submission too, so the server-wide form-action 'self' would stop the
 * payer at our 303 when the client runs on another origin (a dev server, say).
 */
function checkoutPolicy(redirectTargets: string[]): string {
  const origins = new Set<string>();
  for (const target of redirectTargets) {
    try {
      origins.add(new URL(target).origin);
    } catch {
      // Stored URLs were checked at creation; an unreadable one just gets no exception.
    }
  }
  return [
    "default-src 'none'",
    "script-src 'self'",
    'img-src data:',
    "style-src 'unsafe-inline'",
    `form-action 'self' ${[...origins].join(' ')}`.trim(),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

function html(reply: FastifyReply, status: number, body: string) {
  return reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);
}
