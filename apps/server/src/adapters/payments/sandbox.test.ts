import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { decodeInvoice } from './bolt11.ts';
import { eventually, type ReceivedWebhook, WebhookReceiver } from './fakes/webhook-receiver.ts';
import { type SandboxOptions, SandboxProvider, sandboxWebhookSecret } from './sandbox.ts';
import { TRIPLEA_SIGNATURE_HEADER, tripleASignatureHeader } from './signatures.ts';
import { paymentOf, providerError } from './test-support.ts';
import type { CheckoutRequest, WebhookCheck } from './types.ts';

/**
 * The sandbox provider through HTTP: its checkout and Lightning pages and controls on a whole test
 * server, its webhooks received by a local endpoint and checked with verifyWebhook, as the payments
 * module will. Delays are tiny; every wait polls for the expected state with a deadline.
 */

const environment = {
  PRICE_FEED_ENABLED: 'false',
  RATE_LIMIT_ENABLED: 'false',
  SANDBOX_CONFIRM_DELAY_MS: '40',
  SANDBOX_PAYOUT_STEP_MS: '25',
};

const reference = () => `ref-${crypto.randomBytes(6).toString('hex')}`;

function checkoutRequest(receiver: WebhookReceiver, overrides: Partial<CheckoutRequest> = {}): CheckoutRequest {
  return {
    reference: reference(),
    orderCurrency: 'BTC',
    orderAmount: '0.5',
    description: 'Deposit of BTC',
    payer: { accountId: crypto.randomUUID(), email: 'payer@example.com' },
    successUrl: 'http://127.0.0.1:1/wallet?deposit=done',
    cancelUrl: 'http://127.0.0.1:1/wallet?deposit=cancelled',
    notifyUrl: `${receiver.url}/v1/webhooks/sandbox`,
    expiresInSeconds: 900,
    ...overrides,
  };
}

/** A POST as the page's form sends it, without following the redirect. */
function submit(server: TestServer, path: string) {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    redirect: 'manual',
  });
}

function verify(server: TestServer, webhook: ReceivedWebhook, now = new Date()): WebhookCheck {
  return server.services.paymentProvider.gateway.provider.verifyWebhook({
    headers: webhook.headers,
    rawBody: webhook.rawBody,
    now,
  });
}

describeEachDatabase(
  'sandbox payment provider',
  (server) => {
    const receiver = new WebhookReceiver();
    beforeAll(async () => {
      await receiver.start();
    });
    afterAll(async () => {
      await receiver.stop();
    });

    /** A provider of its own on the server's database, with delays long enough to act in between. */
    function slowSandbox(overrides: Partial<SandboxOptions> = {}): SandboxProvider {
      return new SandboxProvider({
        db: server().db,
        log: server().context.log,
        clock: () => server().clock.now,
        dataKey: server().context.secrets.dataKey,
        confirmDelayMs: 60_000,
        payoutStepMs: 60_000,
        webhookToleranceSeconds: 300,
        baseUrl: () => server().url,
        ...overrides,
      });
    }

    describe('hosted checkout', () => {
      it('renders a page with the amount, the address, a QR code, the expiry and three buttons', async () => {
        const sandbox = server().services.paymentProvider.gateway.provider;
        expect(sandbox.name).toBe('sandbox');
        const checkout = await sandbox.createCheckout(checkoutRequest(receiver));
        expect(checkout.hostedUrl).toBe(`${server().url}/sandbox/checkout/${checkout.providerReference}`);
        expect(checkout.cryptoCurrency).toBe('BTC');
        expect(checkout.cryptoAmount).toBe('0.5');
        expect(checkout.cryptoAddress).toMatch(/^tb1q[02-9ac-hj-np-z]{38}$/);

        const response = await fetch(checkout.hostedUrl);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toContain('text/html');
        const policy = response.headers.get('content-security-policy') ?? '';
        expect(policy).toContain("script-src 'self'");
        expect(policy).not.toContain('unsafe-eval');
        expect(policy).not.toContain("default-src 'self'");
        // The page's forms may end on the caller's success and cancel pages (their origin).
        expect(policy).toContain("form-action 'self' http://127.0.0.1:1");
        const page = await response.text();
        expect(page).toContain('Meridian');
        expect(page).toContain('0.5 BTC');
        expect(page).toContain(checkout.cryptoAddress!);
        expect(page).toContain(checkout.expiresAt.toISOString());
        expect(page).toMatch(/<img[^>]+src="data:image\/png;base64,/);
        expect(page).not.toMatch(/<script/i);
        for (const action of ['pay', 'underpay', 'expire']) {
          expect(page).toContain(`action="/sandbox/checkout/${checkout.providerReference}/${action}"`);
        }
        expect(page.match(/<form method="post"/g)).toHaveLength(3);
      });

      it('answers the first checkout again for a repeated reference and creates nothing new', async () => {
        const sandbox = server().services.paymentProvider.gateway.provider;
        const request = checkoutRequest(receiver);
        const first = await sandbox.createCheckout(request);
        const again = await sandbox.createCheckout({ ...request, orderAmount: '9' });
        expect(again.providerReference).toBe(first.providerReference);
        const rows = await server().db.query('SELECT id FROM sandbox_payments WHERE reference = $1', [
          request.reference,
        ]);
        expect(rows.rowCount).toBe(1);
      });

      it('quotes a fiat order in BTC at the reference price, rounded up to the satoshi', async () => {
        const sandbox = server().services.paymentProvider.gateway.provider;
        const checkout = await sandbox.createCheckout(
          checkoutRequest(receiver, { orderCurrency: 'USD', orderAmount: '25' }),
        );
        expect(checkout.cryptoCurrency).toBe('BTC');
        expect(checkout.exchangeRate).toMatch(/^\d+(\.\d+)?$/);
        expect(checkout.cryptoAmount).toMatch(/^0\.\d{1,8}$/);
        // amount x rate covers the order, and one satoshi less would not.
        const sats = BigInt(checkout.cryptoAmount!.replace('0.', '').padEnd(8, '0'));
        const [whole, fraction = ''] = checkout.exchangeRate!.split('.');
        const rateUnits = BigInt(whole! + fraction.padEnd(12, '0').slice(0, 12));
        const orderUnits = 25n * 10n ** 20n;
        expect(sats * rateUnits).toBeGreaterThanOrEqual(orderUnits);
        expect((sats - 1n) * rateUnits).toBeLessThan(orderUnits);
        const page = await (await fetch(checkout.hostedUrl)).text();
        expect(page).toContain(`${checkout.cryptoAmount} BTC`);
        expect(page).toContain('Order: 25 USD');
      });

      it('refuses bad requests and keeps nothing of them', async () => {
        const sandbox = server().services.paymentProvider.gateway.provider;
        const bad: [Partial<CheckoutRequest>, string][] = [
          [{ orderAmount: '-1' }, 'INVALID_AMOUNT'],
          [{ orderAmount: '0' }, 'INVALID_AMOUNT'],
          [{ orderAmount: '' }, 'INVALID_AMOUNT'],
          [{ orderAmount: '1e5' }, 'INVALID_AMOUNT'],
          [{ orderAmount: '0.1234567890123456789' }, 'INVALID_AMOUNT'],
          [{ orderAmount: 12 as unknown as string }, 'INVALID_AMOUNT'],
          [{ reference: '' }, 'INVALID_REFERENCE'],
          [{ reference: 'x'.repeat(201) }, 'INVALID_REFERENCE'],
          [{ orderCurrency: 'b!' }, 'INVALID_CURRENCY'],
          [{ notifyUrl: 'ftp://example.com' }, 'INVALID_URL'],
          [{ successUrl: 'not a url' }, 'INVALID_URL'],
          [{ expiresInSeconds: 0 }, 'INVALID_EXPIRY'],
          [{ expiresInSeconds: 1.5 }, 'INVALID_EXPIRY'],
        ];
        for (const [override, code] of bad) {
          const request = checkoutRequest(receiver, override);
          const error = await providerError(sandbox.createCheckout(request));
          expect(error.details).toMatchObject({ provider: 'sandbox', code, retryable: false });
          if (request.reference) {
            const rows = await server().db.query('SELECT 1 FROM sandbox_payments WHERE reference = $1', [
              request.reference,
            ]);
            expect(rows.rowCount).toBe(0);
          }
        }
      });

      it('pay: redirects to the success URL, then webhooks confirming and paid, each signed and accepted', async () => {
        const sandbox = server().services.paymentProvider.gateway.provider;
        const request = checkoutRequest(receiver);
        const checkout = await sandbox.createCheckout(request);

        const response = await submit(server(), `/sandbox/checkout/${checkout.providerReference}/pay`);
        expect(response.status).toBe(303);
        expect(response.headers.get('location')).toBe(request.successUrl);

        const webhooks = await eventually(() => {
          const about = receiver.about(request.reference);
          return about.length >= 2 ? about : undefined;
        });
        expect(webhooks).toHaveLength(2);
        for (const webhook of webhooks) {
          expect(webhook.path).toBe('/v1/webhooks/sandbox');
          expect(webhook.headers[TRIPLEA_SIGNATURE_HEADER]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
          expect(webhook.body).toMatchObject({
            event: 'payment',
            payment_reference: checkout.providerReference,
            order_currency: 'BTC',
            order_amount: '0.5',
            webhook_data: { reference: request.reference },
          });
        }
        const [seen, final] = webhooks.map((webhook) => paymentOf(verify(server(), webhook)));
        expect(seen).toMatchObject({
          providerReference: checkout.providerReference,
          reference: request.reference,
          status: 'confirming',
          final: false,
          confirmedOrderAmount: '0',
          unconfirmedOrderAmount: '0.5',
        });
        expect(final).toMatchObject({
          status: 'paid',
          final: true,
          confirmedOrderAmount: '0.5',
          unconfirmedOrderAmount: '0',
        });
        expect(webhooks[0]!.body).toMatchObject({ payment_tier: 'hold' });
        expect(webhooks[1]!.body).toMatchObject({ payment_tier: 'good' });

        const status = await sandbox.paymentStatus(checkout.providerReference);
        expect(status).toMatchObject({ status: 'paid', final: true, confirmedOrderAmount: '0.5' });

        // Final: the buttons are gone and pressing one anyway changes nothing.
        const page = await (await fetch(checkout.hostedUrl)).text();
        expect(page).toContain('Paid');
        expect(page).not.toContain('<form');
        const again = await submit(server(), `/sandbox/checkout/${checkout.providerReference}/pay`);
        expect(again.status).toBe(409);
        expect(await again.text()).toContain('This payment can no longer be changed.');
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(receiver.about(request.reference)).toHaveLength(2);
      });

      it('underpay: half is seen, then the payment is final as underpaid with the half confirmed', async () => {
        const sandbox = server().services.paymentProvider.gateway.provider;
        const request = checkoutRequest(receiver, { orderAmount: '0.30000001' });
        const checkout = await sandbox.createCheckout(request);
        const response = await submit(server(), `/sandbox/checkout/${checkout.providerReference}/underpay`);
        expect(response.status).toBe(303);
        expect(response.headers.get('location')).toBe(request.successUrl);
        const webhooks = await eventually(() => {
          const about = receiver.about(request.reference);
          return about.length >= 2 ? about : undefined;
        });
        const [seen, final] = webhooks.map((webhook) => paymentOf(verify(server(), webhook)));
        expect(seen).toMatchObject({ status: 'confirming', final: false, unconfirmedOrderAmount: '0.150000005' });
        expect(final).toMatchObject({
          status: 'underpaid',
          final: true,
          orderAmount: '0.30000001',
          confirmedOrderAmount: '0.150000005',
          unconfirmedOrderAmount: '0',
        });
        expect(webhooks[1]!.body).toMatchObject({ payment_tier: 'short' });
      });

      it('expire: redirects to the cancel URL and the payment is final as expired', async () => {
        const sandbox = server().services.paymentProvider.gateway.provider;
        const request = checkoutRequest(receiver);
        const checkout = await sandbox.createCheckout(request);
        const response = await submit(server(), `/sandbox/checkout/${checkout.providerReference}/expire`);
        expect(response.status).toBe(303);
        expect(response.headers.get('location')).toBe(request.cancelUrl);
        const [webhook] = await eventually(() => {
          const about = receiver.about(request.reference);
          return about.length >= 1 ? about : undefined;
        });
        expect(paymentOf(verify(server(), webhook!))).toMatchObject({
          status: 'expired',
          final: true,
          confirmedOrderAmount: '0',
        });
        expect(await sandbox.paymentStatus(checkout.providerReference)).toMatchObject({
          status: 'expired',
          final: true,
        });
        expect((await submit(server(), `/sandbox/checkout/${checkout.providerReference}/pay`)).status).toBe(409);
      });

      it('a checkout left alone expires by itself at its expiry, with a webhook', async () => {
        const sandbox = server().services.paymentProvider.gateway.provider;
        const request = checkoutRequest(receiver, { expiresInSeconds: 1 });
        const checkout = await sandbox.createCheckout(request);
        const [webhook] = await eventually(() => {
          const about = receiver.about(request.reference);
          return about.length >= 1 ? about : undefined;
        });
        expect(paymentOf(verify(server(), webhook!))).toMatchObject({ status: 'expired', final: true });
        const response = await submit(server(), `/sandbox/checkout/${checkout.providerReference}/pay`);
        expect(response.status).toBe(409);
      });

      it('answers unknown checkouts and actions plainly', async () => {
        const missing = await fetch(`${server().url}/sandbox/checkout/SBX-NOPE-PMT`);
        expect(missing.status).toBe(404);
        expect(await missing.text()).toContain('Payment not found');
        expect((await submit(server(), '/sandbox/checkout/SBX-NOPE-PMT/pay')).status).toBe(404);
        const badAction = await submit(server(), '/sandbox/checkout/SBX-NOPE-PMT/steal');
        expect(badAction.status).toBe(400);
      });
    });

    describe('webhook signatures', () => {
      async function oneWebhook(): Promise<ReceivedWebhook> {
        const sandbox = server().services.paymentProvider.gateway.provider;
        const request = checkoutRequest(receiver);
        const checkout = await sandbox.createCheckout(request);
        await submit(server(), `/sandbox/checkout/${checkout.providerReference}/expire`);
        const [webhook] = await eventually(() => {
          const about = receiver.about(request.reference);
          return about.length >= 1 ? about : undefined;
        });
        return webhook!;
      }

      it('refuses forged, unsigned, stale and malformed calls, and gives a replay the same event id', async () => {
        const webhook = await oneWebhook();
        const accepted = verify(server(), webhook);
        expect(accepted.ok).toBe(true);

        const forgedBody = webhook.rawBody.replace('"expired"', '"done"');
        expect(verify(server(), { ...webhook, rawBody: forgedBody })).toEqual({ ok: false, reason: 'bad_signature' });
        const wrongSecret = tripleASignatureHeader('not the secret', webhook.rawBody, Date.now() / 1000);
        expect(verify(server(), { ...webhook, headers: { [TRIPLEA_SIGNATURE_HEADER]: wrongSecret } })).toEqual({
          ok: false,
          reason: 'bad_signature',
        });
        expect(verify(server(), { ...webhook, headers: {} })).toEqual({ ok: false, reason: 'unsigned' });
        expect(verify(server(), { ...webhook, headers: { [TRIPLEA_SIGNATURE_HEADER]: 'v1=abc' } })).toEqual({
          ok: false,
          reason: 'malformed',
        });

        // Genuinely signed, but long ago: what a captured and replayed request looks like.
        const secret = sandboxWebhookSecret(server().context.secrets.dataKey);
        const old = tripleASignatureHeader(secret, webhook.rawBody, Date.now() / 1000 - 301);
        expect(verify(server(), { ...webhook, headers: { [TRIPLEA_SIGNATURE_HEADER]: old } })).toEqual({
          ok: false,
          reason: 'stale',
        });
        const ahead = tripleASignatureHeader(secret, webhook.rawBody, Date.now() / 1000 + 400);
        expect(verify(server(), { ...webhook, headers: { [TRIPLEA_SIGNATURE_HEADER]: ahead } })).toMatchObject({
          ok: false,
          reason: 'stale',
        });
        const notJson = tripleASignatureHeader(secret, 'nope', Date.now() / 1000);
        expect(
          verify(server(), { ...webhook, rawBody: 'nope', headers: { [TRIPLEA_SIGNATURE_HEADER]: notJson } }),
        ).toEqual({
          ok: false,
          reason: 'malformed',
        });
        const noAmount = JSON.stringify({ event: 'payment', payment_reference: 'x', order_currency: 'BTC' });
        const signedNoAmount = tripleASignatureHeader(secret, noAmount, Date.now() / 1000);
        expect(
          verify(server(), { ...webhook, rawBody: noAmount, headers: { [TRIPLEA_SIGNATURE_HEADER]: signedNoAmount } }),
        ).toEqual({ ok: false, reason: 'malformed' });

        // A replay (the same body re-signed later) is accepted as genuine but has the same event id.
        const resigned = tripleASignatureHeader(secret, webhook.rawBody, Date.now() / 1000 + 5);
        const replay = verify(server(), { ...webhook, headers: { [TRIPLEA_SIGNATURE_HEADER]: resigned } });
        expect(replay.ok && accepted.ok && replay.eventId === accepted.eventId).toBe(true);
      });

      it('retries a webhook the receiver refused, with the same body, until it is taken', async () => {
        const sandbox = slowSandbox({ webhookRetryBaseMs: 10 });
        try {
          const request = checkoutRequest(receiver);
          const checkout = await sandbox.createCheckout(request);
          receiver.script.push(500, 503);
          expect(await sandbox.expire(checkout.providerReference)).toMatchObject({ ok: true });
          const attempts = await eventually(() => {
            const about = receiver.about(request.reference);
            return about.length >= 3 ? about : undefined;
          });
          expect(new Set(attempts.map((attempt) => attempt.rawBody)).size).toBe(1);
          const ids = attempts.map((attempt) => {
            const check = verify(server(), attempt);
            return check.ok ? check.eventId : 'refused';
          });
          expect(new Set(ids).size).toBe(1);
          const row = await eventually(async () => {
            const found = await server().db.query<{ state: string; attempts: number }>(
              `SELECT state, attempts FROM sandbox_webhooks WHERE subject = $1`,
              [checkout.providerReference],
            );
            return found.rows[0]?.state === 'delivered' ? found.rows[0] : undefined;
          });
          expect(row.attempts).toBe(3);
        } finally {
          await sandbox.close();
        }
      });

      it('abandons a webhook after its last attempt', async () => {
        const sandbox = slowSandbox({ webhookRetryBaseMs: 5, webhookAttempts: 2 });
        try {
          const request = checkoutRequest(receiver);
          const checkout = await sandbox.createCheckout(request);
          receiver.script.push(500, 500);
          await sandbox.expire(checkout.providerReference);
          const row = await eventually(async () => {
            const found = await server().db.query<{ state: string; attempts: number; last_error: string }>(
              `SELECT state, attempts, last_error FROM sandbox_webhooks WHERE subject = $1`,
              [checkout.providerReference],
            );
            return found.rows[0]?.state === 'abandoned' ? found.rows[0] : undefined;
          });
          expect(row).toMatchObject({ attempts: 2, last_error: 'HTTP 500' });
        } finally {
          await sandbox.close();
        }
      });
    });

    describe('restart', () => {
      it('re-arms a pending confirmation at start, and close leaves no timer behind', async () => {
        const before = slowSandbox();
        const request = checkoutRequest(receiver);
        const checkout = await before.createCheckout(request);
        expect(await before.pay(checkout.providerReference, 'full')).toMatchObject({ ok: true });
        await eventually(() => (receiver.about(request.reference).length >= 1 ? true : undefined));
        expect(before.pendingTimers).toBeGreaterThan(0);
        await before.close();
        expect(before.pendingTimers).toBe(0);
        expect(await before.paymentStatus(checkout.providerReference)).toMatchObject({ status: 'confirming' });

        // The next process starts after the confirmation was due.
        const after = slowSandbox({ clock: () => new Date(server().clock.now.getTime() + 120_000) });
        try {
          const rearmed = await after.start();
          expect(rearmed.payments).toBeGreaterThanOrEqual(1);
          const final = await eventually(async () => {
            const state = await after.paymentStatus(checkout.providerReference);
            return state.final ? state : undefined;
          });
          expect(final).toMatchObject({ status: 'paid', confirmedOrderAmount: '0.5' });
          // Delivery is at least once: a confirming webhook cut short by close may be sent again first.
          const paid = await eventually(() =>
            receiver
              .about(request.reference)
              .find((webhook) => (webhook.body as { status?: string }).status === 'done'),
          );
          expect(paymentOf(verify(server(), paid, new Date(Date.now() + 120_000)))).toMatchObject({
            status: 'paid',
            final: true,
          });
        } finally {
          await after.close();
        }
      });
    });

    describe('refunds', () => {
      it('records refunds of a paid payment up to what was paid', async () => {
        const sandbox = slowSandbox({ confirmDelayMs: 0 });
        try {
          const checkout = await sandbox.createCheckout(checkoutRequest(receiver));
          const waitingRefund = await providerError(sandbox.refund(checkout.providerReference, '0.1', 'a@example.com'));
          expect(waitingRefund.details.code).toBe('NOT_REFUNDABLE');
          await sandbox.pay(checkout.providerReference, 'full');
          await eventually(async () =>
            (await sandbox.paymentStatus(checkout.providerReference)).final ? true : undefined,
          );
          const first = await sandbox.refund(checkout.providerReference, '0.2', 'a@example.com');
          expect(first.refundReference).toMatch(/^SBX-[0-9A-F]{16}-RF$/);
          await sandbox.refund(checkout.providerReference, '0.3', 'a@example.com');
          const tooMuch = await providerError(
            sandbox.refund(checkout.providerReference, '0.00000001', 'a@example.com'),
          );
          expect(tooMuch.details.code).toBe('REFUND_TOO_LARGE');
          expect(
            (await providerError(sandbox.refund(checkout.providerReference, '-1', 'a@example.com'))).details.code,
          ).toBe('INVALID_AMOUNT');
          expect((await providerError(sandbox.refund('SBX-NOPE-PMT', '1', 'a@example.com'))).details.code).toBe(
            'NOT_FOUND',
          );
        } finally {
          await sandbox.close();
        }
      });
    });

    describe('payouts', () => {
      function payoutRequest(overrides: Record<string, unknown> = {}) {
        return {
          reference: reference(),
          currency: 'BTC',
          amount: '0.01',
          address: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
          extraId: null,
          description: 'Withdrawal',
          notifyUrl: `${receiver.url}/v1/webhooks/sandbox`,
          ...overrides,
        };
      }

      it('walk creating -> waiting -> processing -> finished with a webhook at each step', async () => {
        const sandbox = server().services.paymentProvider.gateway.provider;
        const request = payoutRequest();
        const created = await sandbox.createPayout(request);
        expect(created).toMatchObject({ reference: request.reference, status: 'creating', needsVerification: false });
        expect(created.providerReference).toMatch(/^SBX-[0-9A-F]{16}-PO$/);
        expect(created.batchId).toMatch(/^SBX-[0-9A-F]{16}-BATCH$/);
        const again = await sandbox.createPayout({ ...request, amount: '5' });
        expect(again.providerReference).toBe(created.providerReference);

        const finished = await eventually(async () => {
          const state = await sandbox.payoutStatus(created.providerReference);
          return state.status === 'finished' ? state : undefined;
        });
        expect(finished.hash).toMatch(/^[0-9a-f]{64}$/);
        const webhooks = await eventually(() => {
          const about = receiver.about(request.reference);
          return about.length >= 3 ? about : undefined;
        });
        const events = webhooks.map((webhook) => {
          const check = verify(server(), webhook);
          if (!check.ok || check.event.kind !== 'payout') throw new Error('not a payout event');
          return check.event.payout;
        });
        expect(events.map((payout) => payout.status)).toEqual(['waiting', 'processing', 'finished']);
        for (const payout of events) {
          expect(payout).toMatchObject({
            providerReference: created.providerReference,
            batchId: created.batchId,
            reference: request.reference,
            needsVerification: false,
          });
        }
        expect(events[2]!.hash).toBe(finished.hash);
        const rows = await server().db.query('SELECT 1 FROM sandbox_payouts WHERE reference = $1', [request.reference]);
        expect(rows.rowCount).toBe(1);
      });

      it('gives EVM coins 0x transaction hashes', async () => {
        const sandbox = server().services.paymentProvider.gateway.provider;
        const created = await sandbox.createPayout(
          payoutRequest({ currency: 'ETH', address: '0x52908400098527886E0F7030069857D2E4169EE7' }),
        );
        const finished = await eventually(async () => {
          const state = await sandbox.payoutStatus(created.providerReference);
          return state.status === 'finished' ? state : undefined;
        });
        expect(finished.hash).toMatch(/^0x[0-9a-f]{64}$/);
      });

      it('verifyPayout takes any 6-digit code while the payout is creating or waiting', async () => {
        const sandbox = slowSandbox();
        try {
          const created = await sandbox.createPayout(payoutRequest());
          await expect(sandbox.verifyPayout(created.batchId, '123456')).resolves.toBeUndefined();
          for (const code of ['', '12345', '1234567', 'abcdef', 123456 as unknown as string]) {
            const error = await providerError(sandbox.verifyPayout(created.batchId, code));
            expect(error.details.code).toBe('INVALID_VERIFICATION_CODE');
          }
          expect((await providerError(sandbox.verifyPayout('SBX-NOPE-BATCH', '123456'))).details.code).toBe(
            'NOT_FOUND',
          );
          await sandbox.failPayout(created.providerReference);
          expect((await providerError(sandbox.verifyPayout(created.batchId, '123456'))).details.code).toBe(
            'NOT_VERIFIABLE',
          );
        } finally {
          await sandbox.close();
        }
      });

      it('the fail control fails a payout not final yet, with a webhook, and refuses a final one', async () => {
        const sandbox = slowSandbox();
        try {
          const request = payoutRequest();
          const created = await sandbox.createPayout(request);
          const failed = await server().request('POST', `/sandbox/payouts/${created.providerReference}/fail`);
          expect(failed.status).toBe(200);
          expect(failed.body.payout).toMatchObject({
            providerReference: created.providerReference,
            reference: request.reference,
            status: 'failed',
            hash: null,
            error: 'Failed by the sandbox control',
          });
          const [webhook] = await eventually(() => {
            const about = receiver.about(request.reference);
            return about.length >= 1 ? about : undefined;
          });
          const check = verify(server(), webhook!);
          expect(check.ok && check.event.kind === 'payout' && check.event.payout.status).toBe('failed');
          expect(await sandbox.payoutStatus(created.providerReference)).toMatchObject({ status: 'failed' });

          const again = await server().request('POST', `/sandbox/payouts/${created.providerReference}/fail`);
          expect(again.status).toBe(409);
          expect(again.body.error.code).toBe('PAYMENT_NOT_PENDING');
          const missing = await server().request('POST', '/sandbox/payouts/SBX-NOPE-PO/fail');
          expect(missing.status).toBe(404);
          expect(missing.body.error).toMatchObject({ code: 'PAYMENT_NOT_FOUND', message: 'Payout not found' });
        } finally {
          await sandbox.close();
        }
      });

      it('refuses bad payout requests', async () => {
        const sandbox = server().services.paymentProvider.gateway.provider;
        const cases: [Record<string, unknown>, string][] = [
          [{ amount: '0' }, 'INVALID_AMOUNT'],
          [{ amount: '-0.1' }, 'INVALID_AMOUNT'],
          [{ amount: 'abc' }, 'INVALID_AMOUNT'],
          [{ currency: '' }, 'INVALID_CURRENCY'],
          [{ address: '' }, 'INVALID_ADDRESS'],
          [{ notifyUrl: 'javascript:alert(1)' }, 'INVALID_URL'],
        ];
        for (const [override, code] of cases) {
          const error = await providerError(sandbox.createPayout(payoutRequest(override) as never));
          expect(error.details.code).toBe(code);
        }
        expect((await providerError(sandbox.payoutStatus('SBX-NOPE-PO'))).details).toMatchObject({
          code: 'NOT_FOUND',
          status: 404,
        });
        expect(await sandbox.minimumPayout('BTC')).toBeNull();
        expect(await sandbox.payoutFee('BTC', '1')).toBeNull();
        expect(await sandbox.estimate('1', 'BTC', 'USD')).toBeNull();
      });
    });

    describe('Lightning', () => {
      it('makes a real testnet BOLT11 invoice whose hash is sha256 of the kept preimage, and marks it paid', async () => {
        const sandbox = server().services.paymentProvider.gateway.provider;
        const ref = reference();
        const created = await sandbox.createLightningInvoice({
          reference: ref,
          amountBtc: '0.0015',
          description: 'Meridian deposit',
          expiresInSeconds: 900,
          notifyUrl: `${receiver.url}/v1/webhooks/sandbox`,
        });
        expect(created.invoice).toMatch(/^lntb1500u1/);
        const decoded = decodeInvoice(created.invoice);
        expect(decoded).toMatchObject({
          complete: true,
          prefix: 'lntb1500u',
          amountMsat: 150_000_000n,
          paymentHash: created.paymentHash,
          description: 'Meridian deposit',
          expirySeconds: 900,
        });
        expect(decoded!.paymentSecret).toMatch(/^[0-9a-f]{64}$/);
        expect(decoded!.payeeNodeKey).toMatch(/^0[23][0-9a-f]{64}$/);
        const stored = await server().db.query<{ preimage: string }>(
          'SELECT preimage FROM sandbox_invoices WHERE payment_hash = $1',
          [created.paymentHash],
        );
        const preimage = Buffer.from(stored.rows[0]!.preimage, 'hex');
        expect(crypto.createHash('sha256').update(preimage).digest('hex')).toBe(created.paymentHash);
        expect(created.providerReference).toBe(created.paymentHash);

        const again = await sandbox.createLightningInvoice({
          reference: ref,
          amountBtc: '1',
          description: 'other',
          expiresInSeconds: 60,
          notifyUrl: `${receiver.url}/v1/webhooks/sandbox`,
        });
        expect(again.invoice).toBe(created.invoice);
        expect(await sandbox.lightningStatus(created.providerReference)).toEqual({ paid: false, expired: false });

        const page = await fetch(`${server().url}/sandbox/lightning/${created.paymentHash}`);
        expect(page.status).toBe(200);
        const html = await page.text();
        expect(html).toContain(created.invoice);
        expect(html).toContain('150000 sats');
        expect(html).toContain('0.0015 BTC');
        expect(html).toContain(`action="/sandbox/lightning/${created.paymentHash}/pay"`);
        expect(html).toContain('Mark paid');
        expect(html).not.toMatch(/<script/i);

        const paid = await submit(server(), `/sandbox/lightning/${created.paymentHash}/pay`);
        expect(paid.status).toBe(303);
        expect(paid.headers.get('location')).toBe(`/sandbox/lightning/${created.paymentHash}`);
        const [webhook] = await eventually(() => {
          const about = receiver.about(ref);
          return about.length >= 1 ? about : undefined;
        });
        const check = verify(server(), webhook!);
        expect(check).toMatchObject({
          ok: true,
          event: { kind: 'lightning', providerReference: created.paymentHash, reference: ref, paid: true },
        });
        expect(await sandbox.lightningStatus(created.providerReference)).toEqual({ paid: true, expired: false });
        expect((await submit(server(), `/sandbox/lightning/${created.paymentHash}/pay`)).status).toBe(409);
        expect((await fetch(`${server().url}/sandbox/lightning/${'0'.repeat(64)}`)).status).toBe(404);
        expect((await fetch(`${server().url}/sandbox/lightning/not-a-hash`)).status).toBe(400);
      });

      it('refuses bad invoice requests', async () => {
        const sandbox = server().services.paymentProvider.gateway.provider;
        const base = {
          reference: reference(),
          amountBtc: '0.001',
          description: 'x',
          expiresInSeconds: 900,
          notifyUrl: `${receiver.url}/v1/webhooks/sandbox`,
        };
        for (const amountBtc of ['0', '-1', '', '0.000000000001', '1e-3', '100000000']) {
          const error = await providerError(sandbox.createLightningInvoice({ ...base, amountBtc }));
          expect(error.details.code).toBe('INVALID_AMOUNT');
        }
        const long = await providerError(sandbox.createLightningInvoice({ ...base, description: 'é'.repeat(320) }));
        expect(long.details.code).toBe('INVALID_TEXT');
        expect((await providerError(sandbox.lightningStatus('nope'))).details.code).toBe('NOT_FOUND');
      });

      it('an invoice past its expiry reads as expired and cannot be marked paid', async () => {
        const sandbox = server().services.paymentProvider.gateway.provider;
        const created = await sandbox.createLightningInvoice({
          reference: reference(),
          amountBtc: '0.00000001',
          description: 'tiny',
          expiresInSeconds: 1,
          notifyUrl: `${receiver.url}/v1/webhooks/sandbox`,
        });
        expect(decodeInvoice(created.invoice)?.amountMsat).toBe(1000n);
        server().clock.advance(2_000);
        expect(await sandbox.lightningStatus(created.providerReference)).toEqual({ paid: false, expired: true });
        expect((await submit(server(), `/sandbox/lightning/${created.paymentHash}/pay`)).status).toBe(409);
      });
    });
  },
  environment,
);
