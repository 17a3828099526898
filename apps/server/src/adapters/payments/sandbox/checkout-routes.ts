import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SandboxProvider } from '../sandbox.ts';
import { cardCheckoutPage, checkoutPage, messagePage } from '../sandbox-pages.ts';
import { CONTROL_TEXT, html, idSchema, SANDBOX_TAGS } from './page-replies.ts';

/** The hosted checkout page and its buttons (pay, underpay, decline, expire). */
export function sandboxCheckoutRoutes(scope: FastifyInstance, sandbox: SandboxProvider): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/sandbox/checkout/:id',
    {
      schema: {
        tags: SANDBOX_TAGS,
        summary: 'Sandbox hosted checkout page (HTML)',
        params: z.object({ id: idSchema }),
      },
    },
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
        tags: SANDBOX_TAGS,
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
