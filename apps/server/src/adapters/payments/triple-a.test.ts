import crypto from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeInvoice } from './bolt11.ts';
import { FakeTripleA, type FakeTripleAPayment } from './fakes/fake-triple-a.ts';
import { eventually, WebhookReceiver } from './fakes/webhook-receiver.ts';
import { TRIPLEA_SIGNATURE_HEADER, tripleASignatureHeader } from './signatures.ts';
import { paymentOf, providerError } from './test-support.ts';
import { TripleAAdapter, type TripleAOptions } from './triple-a.ts';
import type { CheckoutRequest, PaymentState } from './types.ts';

/** Contract test: the Triple-A adapter against a local fake in Triple-A's documented shapes. */

const fake = new FakeTripleA();
const receiver = new WebhookReceiver();
let baseUrl = '';
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

function adapter(overrides: Partial<TripleAOptions> = {}): TripleAAdapter {
  return new TripleAAdapter({
    apiUrl: baseUrl,
    clientId: fake.clientId,
    clientSecret: fake.clientSecret,
    merchantKey: fake.merchantKey,
    sandbox: true,
    notifySecretKey: 'test notify secret key',
    webhookToleranceSeconds: 300,
    clock,
    timeoutMs: 2_000,
    ...overrides,
  });
}

function checkoutRequest(overrides: Partial<CheckoutRequest> = {}): CheckoutRequest {
  return {
    reference: `dep-${crypto.randomBytes(6).toString('hex')}`,
    orderCurrency: 'USD',
    orderAmount: '25.50',
    description: 'Deposit',
    payer: { accountId: crypto.randomUUID(), email: 'payer@example.com', name: 'Payer' },
    successUrl: 'https://meridian.example/wallet?deposit=done',
    cancelUrl: 'https://meridian.example/wallet?deposit=cancelled',
    notifyUrl: `${receiver.url}/v1/webhooks/triple-a`,
    expiresInSeconds: 1500,
    ...overrides,
  };
}

beforeAll(async () => {
  baseUrl = await fake.start();
  await receiver.start();
});
afterAll(async () => {
  await fake.stop();
  await receiver.stop();
});
beforeEach(() => {
  offsetMs = 0;
});

describe('Triple-A adapter', () => {
  it('creates a hosted payment with our reference, a per-payment notify secret and exact amounts', async () => {
    const tripleA = adapter();
    const request = checkoutRequest();
    const checkout = await tripleA.createCheckout(request);
    expect(checkout.providerReference).toMatch(/^PMA-\d+-PMT$/);
    expect(checkout.hostedUrl).toBe(`${baseUrl}/hosted/${checkout.providerReference}`);
    expect(checkout.expiresAt.getTime()).toBeGreaterThan(Date.now());

    const sent = fake.requests.filter((r) => r.path === '/payment' && r.method === 'POST').at(-1)!;
    expect(sent.headers.authorization).toMatch(/^Bearer [0-9a-f]{32}$/);
    expect(sent.rawBody).toContain('"order_amount":25.5');
    expect(sent.body).toMatchObject({
      type: 'triplea',
      merchant_key: fake.merchantKey,
      order_currency: 'USD',
      payer_id: request.payer.accountId,
      payer_email: 'payer@example.com',
      notify_url: request.notifyUrl,
      notify_secret: tripleA.notifySecret(request.reference),
      webhook_data: { reference: request.reference },
      sandbox: true,
    });
    // The secret is ours per reference: another reference, another secret; the same, the same.
    expect(tripleA.notifySecret(request.reference)).toBe(adapter().notifySecret(request.reference));
    expect(tripleA.notifySecret(request.reference)).not.toBe(tripleA.notifySecret(`${request.reference}x`));
    expect(tripleA.notifySecret(request.reference)).not.toBe(
      adapter({ notifySecretKey: 'other key' }).notifySecret(request.reference),
    );
  });

  it('maps every payment tier and status to ours', async () => {
    const tripleA = adapter();
    const checkout = await tripleA.createCheckout(checkoutRequest());
    const past = new Date(Date.now() - 60_000).toISOString();
    const future = new Date(Date.now() + 60_000).toISOString();
    const cases: [Partial<FakeTripleAPayment>, Partial<PaymentState>][] = [
      [
        { payment_tier: 'none', status: 'new', expiry_date: future },
        { status: 'waiting', final: false },
      ],
      [
        { payment_tier: 'none', status: 'new', expiry_date: past },
        { status: 'expired', final: true },
      ],
      [
        { payment_tier: 'none', status: 'cancel', expiry_date: future },
        { status: 'expired', final: true },
      ],
      [
        { payment_tier: 'hold', status: 'hold', unconfirmed_order_amt: '25.5', expiry_date: past },
        { status: 'confirming', final: false, unconfirmedOrderAmount: '25.5', confirmedOrderAmount: '0' },
      ],
      [
        { payment_tier: 'short', status: 'hold', confirmed_order_amt: '10', expiry_date: future },
        { status: 'underpaid', final: false, confirmedOrderAmount: '10' },
      ],
      [
        { payment_tier: 'short', status: 'done', confirmed_order_amt: '10' },
        { status: 'underpaid', final: true, confirmedOrderAmount: '10' },
      ],
      [
        { payment_tier: 'short', status: 'new', confirmed_order_amt: '10', expiry_date: past },
        { status: 'underpaid', final: true, confirmedOrderAmount: '10' },
      ],
      [
        { payment_tier: 'good', status: 'done', confirmed_order_amt: 25.5 as never, unconfirmed_order_amt: '0' },
        { status: 'paid', final: true, confirmedOrderAmount: '25.5', unconfirmedOrderAmount: '0' },
      ],
      [
        { payment_tier: 'GOOD', status: 'Done', confirmed_order_amt: '0' },
        { status: 'paid', final: true, confirmedOrderAmount: '25.5' },
      ],
      [
        { payment_tier: 'invalid', status: 'invalid' },
        { status: 'failed', final: true, confirmedOrderAmount: '0' },
      ],
      [
        { payment_tier: 'good', status: 'refunded' },
        { status: 'refunded', final: true },
      ],
    ];
    for (const [change, expected] of cases) {
      fake.setPayment(checkout.providerReference, {
        confirmed_order_amt: '0',
        unconfirmed_order_amt: '0',
        expiry_date: future,
        ...change,
      });
      const state = await tripleA.paymentStatus(checkout.providerReference);
      expect({ change, state }).toMatchObject({ change, state: expected });
      expect(state).toMatchObject({
        providerReference: checkout.providerReference,
        orderCurrency: 'USD',
        orderAmount: '25.5',
      });
    }
    fake.setPayment(checkout.providerReference, { order_amount: 'lots' });
    expect((await providerError(tripleA.paymentStatus(checkout.providerReference))).details.retryable).toBe(true);
    const missing = await providerError(tripleA.paymentStatus('PMA-0-PMT'));
    expect(missing.details).toMatchObject({ status: 404, code: 'not_found', retryable: false });
  });

  describe('webhooks', () => {
    it('accepts a genuine one (delivered over HTTP) and refuses forged, unsigned, stale and malformed ones', async () => {
      const tripleA = adapter();
      const request = checkoutRequest();
      const checkout = await tripleA.createCheckout(request);
      fake.setPayment(checkout.providerReference, {
        payment_tier: 'good',
        status: 'done',
        confirmed_order_amt: '25.5',
      });
      expect(await fake.deliverPaymentWebhook(checkout.providerReference)).toBe(200);
      const delivered = await eventually(() => receiver.about(request.reference)[0]);
      const check = tripleA.verifyWebhook({ headers: delivered.headers, rawBody: delivered.rawBody, now: clock() });
      expect(paymentOf(check)).toMatchObject({
        providerReference: checkout.providerReference,
        reference: request.reference,
        status: 'paid',
        final: true,
        confirmedOrderAmount: '25.5',
      });

      const genuine = fake.paymentWebhook(checkout.providerReference);
      const verify = (headers: Record<string, string>, rawBody = genuine.rawBody, now = clock()) =>
        tripleA.verifyWebhook({ headers, rawBody, now });
      expect(verify(genuine.headers).ok).toBe(true);
      expect(verify(genuine.headers, genuine.rawBody.replace('"good"', '"short"'))).toEqual({
        ok: false,
        reason: 'bad_signature',
      });
      // Signed with the secret of another payment of ours: still not this payment's signature.
      const otherSecret = fake.paymentWebhook(checkout.providerReference, {
        secret: tripleA.notifySecret('another-ref'),
      });
      expect(verify(otherSecret.headers)).toEqual({ ok: false, reason: 'bad_signature' });
      expect(verify({})).toEqual({ ok: false, reason: 'unsigned' });
      expect(verify({ [TRIPLEA_SIGNATURE_HEADER]: 't=abc,v1=00' })).toEqual({ ok: false, reason: 'malformed' });
      const stale = fake.paymentWebhook(checkout.providerReference, { unixSeconds: Date.now() / 1000 - 300 });
      expect(verify(stale.headers)).toEqual({ ok: false, reason: 'stale' });
      expect(verify(genuine.headers, genuine.rawBody, new Date(Date.now() + 300_000))).toEqual({
        ok: false,
        reason: 'stale',
      });

      const noReference = JSON.stringify({ ...JSON.parse(genuine.rawBody), webhook_data: {} });
      const signedNoReference = tripleASignatureHeader(
        tripleA.notifySecret(request.reference),
        noReference,
        Date.now() / 1000,
      );
      expect(verify({ [TRIPLEA_SIGNATURE_HEADER]: signedNoReference }, noReference)).toEqual({
        ok: false,
        reason: 'malformed',
      });
      expect(verify(genuine.headers, '{not json')).toEqual({ ok: false, reason: 'malformed' });

      // A replay: the same body, signed again later, is genuine and carries the same event id.
      const replay = fake.paymentWebhook(checkout.providerReference, { unixSeconds: Date.now() / 1000 + 10 });
      const first = verify(genuine.headers);
      const second = verify(replay.headers, replay.rawBody);
      expect(first.ok && second.ok && first.eventId === second.eventId).toBe(true);
      fake.setPayment(checkout.providerReference, { payment_tier: 'invalid' });
      const changed = fake.paymentWebhook(checkout.providerReference);
      const third = verify(changed.headers, changed.rawBody);
      expect(third.ok && first.ok && third.eventId !== first.eventId).toBe(true);
    });

    it('reads payout webhooks', async () => {
      const tripleA = adapter();
      const payout = await tripleA.createPayout(payoutRequest());
      fake.setPayout(payout.providerReference, { status: 'done', tx_hash: 'ab'.repeat(32) });
      const { headers, rawBody } = fake.payoutWebhook(payout.providerReference);
      const check = tripleA.verifyWebhook({ headers, rawBody, now: clock() });
      expect(check).toMatchObject({
        ok: true,
        event: {
          kind: 'payout',
          payout: { providerReference: payout.providerReference, status: 'finished', hash: 'ab'.repeat(32) },
        },
      });
    });
  });

  function payoutRequest() {
    return {
      reference: `wd-${crypto.randomBytes(6).toString('hex')}`,
      currency: 'btc',
      amount: '0.0123',
      address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      extraId: null,
      description: 'Withdrawal',
      notifyUrl: `${receiver.url}/v1/webhooks/triple-a`,
    };
  }

  describe('payouts', () => {
    it('create, confirm (verifyPayout), status through to finished; cancel', async () => {
      const tripleA = adapter();
      const request = payoutRequest();
      const created = await tripleA.createPayout(request);
      expect(created).toMatchObject({
        reference: request.reference,
        status: 'creating',
        needsVerification: true,
        networkFee: '0.00001',
        batchId: created.providerReference,
      });
      const sent = fake.requests.filter((r) => r.path === '/payout/withdraw/local/crypto/direct').at(-1)!;
      expect(sent.rawBody).toContain('"withdraw_amount":0.0123');
      expect(sent.body).toMatchObject({
        merchant_key: fake.merchantKey,
        crypto_currency: 'BTC',
        address: request.address,
        remarks: request.reference,
        notify_secret: tripleA.notifySecret(request.reference),
        webhook_data: { reference: request.reference },
      });
      expect(await tripleA.payoutStatus(created.providerReference)).toMatchObject({
        status: 'creating',
        reference: request.reference,
      });

      await tripleA.verifyPayout(created.batchId, '123456');
      expect(fake.payouts.get(created.providerReference)?.status).toBe('confirmed');
      expect(await tripleA.payoutStatus(created.providerReference)).toMatchObject({
        status: 'waiting',
        needsVerification: false,
      });
      fake.setPayout(created.providerReference, { status: 'done', tx_hash: 'cd'.repeat(32) });
      expect(await tripleA.payoutStatus(created.providerReference)).toMatchObject({
        status: 'finished',
        hash: 'cd'.repeat(32),
      });
      const twice = await providerError(tripleA.verifyPayout(created.batchId, '123456'));
      expect(twice.details).toMatchObject({ status: 400, code: 'invalid_state', retryable: false });
      fake.setPayout(created.providerReference, { status: 'mystery' });
      expect((await providerError(tripleA.payoutStatus(created.providerReference))).message).toContain(
        'unexpected shape',
      );

      const other = await tripleA.createPayout(payoutRequest());
      await tripleA.cancelPayout(other.providerReference);
      expect(await tripleA.payoutStatus(other.providerReference)).toMatchObject({ status: 'rejected' });
    });

    it('has no minimum, fee or estimate calls (callers use §9) and asks Triple-A nothing for them', async () => {
      const tripleA = adapter();
      const before = fake.requests.length;
      expect(await tripleA.minimumPayout('BTC')).toBeNull();
      expect(await tripleA.payoutFee('BTC', '1')).toBeNull();
      expect(await tripleA.estimate('1', 'BTC', 'USD')).toBeNull();
      expect(fake.requests.length).toBe(before);
    });
  });

  it('refunds a payment locally', async () => {
    const tripleA = adapter();
    const checkout = await tripleA.createCheckout(checkoutRequest());
    const refund = await tripleA.refund(checkout.providerReference, '5.25', 'payer@example.com');
    expect(refund.refundReference).toMatch(/^RFD-\d+$/);
    expect(fake.refunds.at(-1)).toMatchObject({ payment_reference: checkout.providerReference, refund_amount: 5.25 });
    expect((await providerError(tripleA.refund('PMA-0-PMT', '1', 'a@example.com'))).details.status).toBe(404);
  });

  describe('Lightning', () => {
    it('says clearly that the upstream refused when the path is not served', async () => {
      const tripleA = adapter();
      const error = await providerError(
        tripleA.createLightningInvoice({
          reference: 'ln-1',
          amountBtc: '0.001',
          description: 'Deposit',
          expiresInSeconds: 900,
          notifyUrl: `${receiver.url}/v1/webhooks/triple-a`,
        }),
      );
      expect(error.details).toMatchObject({ provider: 'triple-a', status: 404, retryable: false });
      expect(error.message).toContain('Triple-A refused the Lightning invoice');
      expect(error.message).toContain('POST /lightning/payment');
    });

    it('reads a BOLT11 invoice and its status where the path is served', async () => {
      fake.lightningEnabled = true;
      try {
        const tripleA = adapter();
        const invoice = await tripleA.createLightningInvoice({
          reference: 'ln-2',
          amountBtc: '0.001',
          description: 'Deposit',
          expiresInSeconds: 900,
          notifyUrl: `${receiver.url}/v1/webhooks/triple-a`,
        });
        expect(decodeInvoice(invoice.invoice)?.paymentHash).toBe(invoice.paymentHash);
        expect(await tripleA.lightningStatus(invoice.providerReference)).toEqual({ paid: false, expired: false });
        fake.lightning.get(invoice.providerReference)!.status = 'paid';
        expect(await tripleA.lightningStatus(invoice.providerReference)).toEqual({ paid: true, expired: false });
      } finally {
        fake.lightningEnabled = false;
      }
    });
  });

  describe('errors', () => {
    it('maps HTTP failures to ProviderError, retryable on 5xx, 429, timeouts and network failures', async () => {
      const tripleA = adapter({ timeoutMs: 150 });
      await tripleA.createCheckout(checkoutRequest()); // a token first, so the scripts hit the calls

      fake.failNext({ status: 503, pathPrefix: '/payment' });
      expect((await providerError(tripleA.createCheckout(checkoutRequest()))).details).toMatchObject({
        provider: 'triple-a',
        status: 503,
        retryable: true,
      });
      fake.failNext({ status: 429, pathPrefix: '/payment' });
      expect((await providerError(tripleA.createCheckout(checkoutRequest()))).details.retryable).toBe(true);
      fake.failNext({
        status: 422,
        pathPrefix: '/payment',
        body: { error: 'invalid_amount', message: 'Amount too small' },
      });
      const refused = await providerError(tripleA.createCheckout(checkoutRequest()));
      expect(refused.details).toMatchObject({ status: 422, code: 'invalid_amount', retryable: false });
      expect(refused.message).toContain('Amount too small');
      fake.failNext({ status: 200, garbage: true, pathPrefix: '/payment' });
      expect((await providerError(tripleA.createCheckout(checkoutRequest()))).message).toContain('unexpected shape');
      fake.failNext({ status: 200, delayMs: 600, pathPrefix: '/payment' });
      const slow = await providerError(tripleA.createCheckout(checkoutRequest()));
      expect(slow.details.retryable).toBe(true);
      expect(slow.message).toContain('did not answer');

      const nowhere = adapter({ apiUrl: 'http://127.0.0.1:9' });
      const unreachable = await providerError(nowhere.createCheckout(checkoutRequest()));
      expect(unreachable.details).toMatchObject({ retryable: true });
      expect(unreachable.message).toContain('unreachable');
    });

    it('refuses bad amounts before calling Triple-A', async () => {
      const tripleA = adapter();
      const before = fake.requests.filter((r) => r.path === '/payment').length;
      for (const orderAmount of ['-1', '0', '', '1e3', 'ten']) {
        const error = await providerError(tripleA.createCheckout(checkoutRequest({ orderAmount })));
        expect(error.details).toMatchObject({ code: 'INVALID_AMOUNT', retryable: false });
      }
      expect(fake.requests.filter((r) => r.path === '/payment').length).toBe(before);
    });
  });

  describe('OAuth token', () => {
    it('is fetched once for concurrent calls, reused until shortly before expiry, and renewed after a 401', async () => {
      const tripleA = adapter();
      const issued = fake.tokensIssued;
      await Promise.all([
        tripleA.createCheckout(checkoutRequest()),
        tripleA.createCheckout(checkoutRequest()),
        tripleA.createCheckout(checkoutRequest()),
      ]);
      expect(fake.tokensIssued).toBe(issued + 1);
      const tokenRequest = fake.requests.filter((r) => r.path === '/oauth/token').at(-1)!;
      expect(tokenRequest.body).toEqual({
        client_id: fake.clientId,
        client_secret: fake.clientSecret,
        grant_type: 'client_credentials',
      });

      offsetMs = (fake.tokenLifetimeSeconds - 120) * 1000;
      await tripleA.createCheckout(checkoutRequest());
      expect(fake.tokensIssued).toBe(issued + 1);
      offsetMs = (fake.tokenLifetimeSeconds - 30) * 1000;
      await tripleA.createCheckout(checkoutRequest());
      expect(fake.tokensIssued).toBe(issued + 2);

      fake.revokeTokens();
      await tripleA.createCheckout(checkoutRequest());
      expect(fake.tokensIssued).toBe(issued + 3);
    });

    it('reports refused client credentials', async () => {
      const error = await providerError(adapter({ clientSecret: 'wrong' }).createCheckout(checkoutRequest()));
      expect(error.details).toMatchObject({ status: 401, code: 'invalid_client', retryable: false });
    });
  });
});
