import type { FastifyInstance } from 'fastify';
import { sandboxCheckoutRoutes } from './sandbox/checkout-routes.ts';
import { sandboxLightningRoutes } from './sandbox/lightning-routes.ts';
import { sandboxPayoutRoutes } from './sandbox/payout-routes.ts';
import type { SandboxProvider } from './sandbox.ts';

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
export function sandboxRoutes(scope: FastifyInstance, sandbox: SandboxProvider): void {
  // The pages' buttons are plain HTML forms; they post no fields, so the body is not read.
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) =>
    done(null, {}),
  );
  sandboxCheckoutRoutes(scope, sandbox);
  sandboxLightningRoutes(scope, sandbox);
  sandboxPayoutRoutes(scope, sandbox);
}
