import crypto from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeNowPayments } from './fakes/fake-nowpayments.ts';
import { eventually, WebhookReceiver } from './fakes/webhook-receiver.ts';
import { NowPaymentsAdapter, type NowPaymentsOptions } from './nowpayments.ts';
import { NOWPAYMENTS_SIGNATURE_HEADER, nowPaymentsSignature } from './signatures.ts';
import { paymentOf, providerError } from './test-support.ts';
import type { CheckoutRequest, PaymentState, PayoutRequest } from './types.ts';

/** Contract test: the NOWPayments adapter against a local fake in NOWPayments' documented shapes. */

const fake = new FakeNowPayments();
const receiver = new WebhookReceiver();
let baseUrl = '';
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

function adapter(overrides: Partial<NowPaymentsOptions> = {}): NowPaymentsAdapter {
  return new NowPaymentsAdapter({
    apiUrl: baseUrl,
    apiKey: fake.apiKey,
    ipnSecret: fake.ipnSecret,
    email: fake.email,
    password: fake.password,
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
    payCurrency: 'BTC',
    description: 'Deposit',
    payer: { accountId: crypto.randomUUID() },
    successUrl: 'https://meridian.example/wallet?deposit=done',
    cancelUrl: 'https://meridian.example/wallet?deposit=cancelled',
    notifyUrl: `${receiver.url}/v1/webhooks/nowpayments`,
    expiresInSeconds: 3600,
    ...overrides,
  };
}

function payoutRequest(overrides: Partial<PayoutRequest> = {}): PayoutRequest {
  return {
    reference: `wd-${crypto.randomBytes(6).toString('hex')}`,
    currency: 'XRP',
    amount: '12.345678',
    address: 'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh',
    extraId: '104212',
    description: 'Withdrawal',
    notifyUrl: `${receiver.url}/v1/webhooks/nowpayments`,
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

describe('NOWPayments adapter', () => {
  it('creates a hosted checkout through the invoice API, with our reference as order_id', async () => {
    const nowPayments = adapter();
    const request = checkoutRequest();
    const checkout = await nowPayments.createCheckout(request);
    expect(checkout.providerReference).toMatch(/^\d+$/);
    expect(checkout.hostedUrl).toBe(`${baseUrl}/payment/?iid=${checkout.providerReference}`);
    expect(checkout.cryptoCurrency).toBe('BTC');
    const sent = fake.requests.filter((r) => r.path === '/invoice').at(-1)!;
    expect(sent.headers['x-api-key']).toBe(fake.apiKey);
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.rawBody).toContain('"price_amount":25.5');
    expect(sent.body).toMatchObject({
      price_currency: 'usd',
      pay_currency: 'btc',
      ipn_callback_url: request.notifyUrl,
      order_id: request.reference,
      order_description: 'Deposit',
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
    });
  });

  it('maps every payment status (in either case) to ours', async () => {
    const nowPayments = adapter();
    const checkout = await nowPayments.createCheckout(checkoutRequest({ orderAmount: '100' }));
    const unpaid = await nowPayments.paymentStatus(checkout.providerReference);
    expect(unpaid).toMatchObject({ status: 'waiting', final: false, orderCurrency: 'USD', orderAmount: '100' });

    const cases: [{ payment_status: string; pay_amount?: number; actually_paid?: number }, Partial<PaymentState>][] = [
      [
        { payment_status: 'waiting', pay_amount: 0.0015, actually_paid: 0 },
        { status: 'waiting', final: false },
      ],
      [
        { payment_status: 'confirming', actually_paid: 0.0015 },
        { status: 'confirming', final: false, unconfirmedOrderAmount: '100', confirmedOrderAmount: '0' },
      ],
      [{ payment_status: 'confirmed' }, { status: 'confirming', final: false, unconfirmedOrderAmount: '100' }],
      [{ payment_status: 'sending' }, { status: 'confirming', final: false }],
      [
        { payment_status: 'partially_paid', actually_paid: 0.0005 },
        { status: 'underpaid', final: true, confirmedOrderAmount: '33.33333333', unconfirmedOrderAmount: '0' },
      ],
      [
        { payment_status: 'finished', actually_paid: 0.0015 },
        { status: 'paid', final: true, confirmedOrderAmount: '100', unconfirmedOrderAmount: '0' },
      ],
      [{ payment_status: 'FINISHED' }, { status: 'paid', final: true }],
      [
        { payment_status: 'failed', actually_paid: 0 },
        { status: 'failed', final: true, confirmedOrderAmount: '0' },
      ],
      [{ payment_status: 'refunded' }, { status: 'refunded', final: true }],
      [{ payment_status: 'Expired' }, { status: 'expired', final: true }],
    ];
    for (const [change, expected] of cases) {
      fake.payInvoice(checkout.providerReference, change);
      const state = await nowPayments.paymentStatus(checkout.providerReference);
      expect({ change, state }).toMatchObject({ change, state: expected });
      expect(state).toMatchObject({
        providerReference: checkout.providerReference,
        orderCurrency: 'USD',
        orderAmount: '100',
        cryptoCurrency: 'BTC',
        cryptoAmount: '0.0015',
      });
    }
    const list = fake.requests.filter((r) => r.path === '/payment/').at(-1)!;
    expect(list.query.get('invoiceId')).toBe(checkout.providerReference);
    expect(list.headers.authorization).toMatch(/^Bearer /);
    expect(fake.requests.at(-1)!.path).toMatch(/^\/payment\/\d+$/);

    fake.payInvoice(checkout.providerReference, { payment_status: 'weird' });
    const unknown = await providerError(nowPayments.paymentStatus(checkout.providerReference));
    expect(unknown.message).toContain('unknown status weird');
  });

  describe('IPN', () => {
    it('accepts a genuine call (delivered over HTTP) and refuses forged, unsigned and malformed ones', async () => {
      const nowPayments = adapter();
      const request = checkoutRequest();
      const checkout = await nowPayments.createCheckout(request);
      const payment = fake.payInvoice(checkout.providerReference, {
        payment_status: 'finished',
        pay_amount: 0.0004,
        actually_paid: 0.0004,
      });
      expect(await fake.deliverPaymentIpn(payment.payment_id)).toBe(200);
      const delivered = await eventually(() => receiver.about(request.reference)[0]);
      const check = nowPayments.verifyWebhook({ headers: delivered.headers, rawBody: delivered.rawBody, now: clock() });
      expect(paymentOf(check)).toMatchObject({
        providerReference: checkout.providerReference,
        reference: request.reference,
        status: 'paid',
        final: true,
        confirmedOrderAmount: '25.5',
      });

      const genuine = fake.paymentIpn(payment.payment_id);
      const verify = (headers: Record<string, string>, rawBody = genuine.rawBody) =>
        nowPayments.verifyWebhook({ headers, rawBody, now: clock() });
      // The signature covers the key-sorted body: the body's own key order does not matter.
      const reordered = JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(genuine.rawBody)).reverse()));
      expect(verify(genuine.headers, reordered).ok).toBe(true);
      expect(verify(genuine.headers, genuine.rawBody.replace('"finished"', '"refunded"'))).toEqual({
        ok: false,
        reason: 'bad_signature',
      });
      expect(verify(fake.ipn(payment, 'not the secret').headers)).toEqual({ ok: false, reason: 'bad_signature' });
      expect(verify({})).toEqual({ ok: false, reason: 'unsigned' });
      expect(verify({ [NOWPAYMENTS_SIGNATURE_HEADER]: 'zz' })).toEqual({ ok: false, reason: 'bad_signature' });
      expect(verify(genuine.headers, 'not json')).toEqual({ ok: false, reason: 'malformed' });
      const odd = { payment_id: 1, payment_status: 'odd', price_amount: 1, price_currency: 'usd' };
      expect(verify(fake.ipn(odd).headers, JSON.stringify(odd))).toEqual({ ok: false, reason: 'malformed' });

      // NOWPayments signs no time: an old call is still genuine (no stale check is possible), and
      // a replay is recognised by its event id, which changes only when the body does.
      offsetMs = 86_400_000;
      const first = verify(genuine.headers);
      const replay = verify(genuine.headers, reordered);
      expect(first.ok && replay.ok && first.eventId === replay.eventId).toBe(true);
      const moved = fake.payInvoice(checkout.providerReference, { payment_status: 'refunded' });
      const later = verify(fake.paymentIpn(moved.payment_id).headers, fake.paymentIpn(moved.payment_id).rawBody);
      expect(later.ok && first.ok && later.eventId !== first.eventId).toBe(true);
    });

    it('reads payout IPN calls', async () => {
      const nowPayments = adapter();
      const created = await nowPayments.createPayout(payoutRequest());
      fake.setWithdrawal(created.providerReference, { status: 'FINISHED', hash: 'ab'.repeat(32), fee: 0.25 });
      const { headers, rawBody } = fake.withdrawalIpn(created.providerReference);
      expect(nowPayments.verifyWebhook({ headers, rawBody, now: clock() })).toMatchObject({
        ok: true,
        event: {
          kind: 'payout',
          payout: {
            providerReference: created.providerReference,
            batchId: created.batchId,
            reference: created.reference,
            status: 'finished',
            hash: 'ab'.repeat(32),
            networkFee: '0.25',
          },
        },
      });
    });
  });

  describe('payouts', () => {
    it('create with the §3.5 item, verify with the code, and follow the status', async () => {
      const nowPayments = adapter();
      const request = payoutRequest();
      const created = await nowPayments.createPayout(request);
      expect(created).toMatchObject({ reference: request.reference, status: 'creating', needsVerification: true });
      expect(created.batchId).not.toBe(created.providerReference);
      const sent = fake.requests.filter((r) => r.path === '/payout' && r.method === 'POST').at(-1)!;
      expect(sent.headers['x-api-key']).toBe(fake.apiKey);
      expect(sent.headers.authorization).toMatch(/^Bearer eyJ/);
      expect(sent.rawBody).toContain('"amount":12.345678');
      expect(sent.body).toMatchObject({
        ipn_callback_url: request.notifyUrl,
        withdrawals: [
          {
            address: request.address,
            currency: 'xrp',
            extra_id: '104212',
            ipn_callback_url: request.notifyUrl,
            payout_description: 'Withdrawal',
            unique_external_id: request.reference,
          },
        ],
      });

      const wrong = await providerError(nowPayments.verifyPayout(created.batchId, '000000'));
      expect(wrong.details).toMatchObject({ status: 400, code: 'INVALID_VERIFICATION_CODE', retryable: false });
      expect(wrong.message).toContain('Wrong verification code');
      await nowPayments.verifyPayout(created.batchId, fake.verificationCode);
      expect(fake.requests.filter((r) => r.path.endsWith('/verify')).at(-1)!.body).toEqual({
        verification_code: fake.verificationCode,
      });
      expect(await nowPayments.payoutStatus(created.providerReference)).toMatchObject({
        status: 'waiting',
        needsVerification: false,
        reference: request.reference,
      });
      for (const [status, ours] of [
        ['PROCESSING', 'processing'],
        ['sending', 'sending'],
        ['FINISHED', 'finished'],
        ['FAILED', 'failed'],
        ['REJECTED', 'rejected'],
        ['cancelled', 'rejected'],
      ] as const) {
        fake.setWithdrawal(created.providerReference, { status });
        expect((await nowPayments.payoutStatus(created.providerReference)).status).toBe(ours);
      }
      fake.setWithdrawal(created.providerReference, { status: 'LOST' });
      expect((await providerError(nowPayments.payoutStatus(created.providerReference))).message).toContain(
        'unexpected',
      );
      const missing = await providerError(nowPayments.payoutStatus('999'));
      expect(missing.details).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    });

    it('refuses amounts with more than 6 decimals before calling NOWPayments', async () => {
      const nowPayments = adapter();
      const before = fake.requests.length;
      const error = await providerError(nowPayments.createPayout(payoutRequest({ amount: '0.1234567' })));
      expect(error.details).toMatchObject({ code: 'AMOUNT_TOO_PRECISE', retryable: false });
      expect(error.message).toContain('at most 6 decimals');
      for (const amount of ['0', '-1', '', 'abc']) {
        const bad = await providerError(nowPayments.createPayout(payoutRequest({ amount })));
        expect(bad.details.code).toBe('INVALID_AMOUNT');
      }
      expect(fake.requests.length).toBe(before);
    });

    it('reads minimum amounts, fees and estimates', async () => {
      const nowPayments = adapter();
      expect(await nowPayments.minimumPayout('BTC')).toBe('0.0001');
      expect(fake.requests.at(-1)!.path).toBe('/payout-withdrawal/min-amount/btc');
      expect(await nowPayments.minimumPayout('NOPE')).toBeNull();
      expect(await nowPayments.payoutFee('BTC', '0.5')).toBe('0.00002');
      expect(Object.fromEntries(fake.requests.at(-1)!.query)).toEqual({ currency: 'btc', amount: '0.5' });
      expect(await nowPayments.estimate('100', 'USD', 'BTC')).toBe('0.00148');
      expect(Object.fromEntries(fake.requests.at(-1)!.query)).toEqual({
        amount: '100',
        currency_from: 'usd',
        currency_to: 'btc',
      });
      expect((await providerError(nowPayments.estimate('1', 'XYZ', 'BTC'))).details.code).toBe(
        'INVALID_REQUEST_PARAMS',
      );
    });
  });

  describe('errors', () => {
    it('maps {status:false, statusCode, code, message} and HTTP failures to ProviderError', async () => {
      const nowPayments = adapter({ timeoutMs: 150 });
      fake.failNext({
        status: 400,
        pathPrefix: '/payout',
        body: {
          status: false,
          statusCode: 400,
          code: 'BAD_CREATE_WITHDRAWAL_REQUEST',
          message: 'Insufficient balance',
        },
      });
      const refused = await providerError(nowPayments.createPayout(payoutRequest()));
      expect(refused.details).toMatchObject({
        provider: 'nowpayments',
        status: 400,
        code: 'BAD_CREATE_WITHDRAWAL_REQUEST',
        retryable: false,
      });
      expect(refused.message).toContain('Insufficient balance');
      fake.failNext({ status: 500, pathPrefix: '/invoice' });
      expect((await providerError(nowPayments.createCheckout(checkoutRequest()))).details).toMatchObject({
        status: 500,
        retryable: true,
      });
      fake.failNext({ status: 200, delayMs: 600, pathPrefix: '/estimate' });
      expect((await providerError(nowPayments.estimate('1', 'USD', 'BTC'))).details.retryable).toBe(true);
      fake.failNext({ status: 200, garbage: true, pathPrefix: '/invoice' });
      expect((await providerError(nowPayments.createCheckout(checkoutRequest()))).message).toContain(
        'unexpected shape',
      );
      const badKey = await providerError(adapter({ apiKey: 'wrong' }).minimumPayout('BTC'));
      expect(badKey.details).toMatchObject({ status: 403, code: 'INVALID_API_KEY', retryable: false });
    });

    it('has no Lightning or refunds', async () => {
      const nowPayments = adapter();
      const lightning = await providerError(
        nowPayments.createLightningInvoice({
          reference: 'ln',
          amountBtc: '0.001',
          description: 'x',
          expiresInSeconds: 60,
          notifyUrl: receiver.url,
        }),
      );
      expect(lightning.details).toMatchObject({ code: 'UNSUPPORTED', retryable: false });
      expect((await providerError(nowPayments.lightningStatus('x'))).details.code).toBe('UNSUPPORTED');
      expect((await providerError(nowPayments.refund('x', '1', 'a@example.com'))).details.code).toBe('UNSUPPORTED');
    });
  });

  describe('JWT', () => {
    it('is fetched once, reused under 5 minutes, renewed after, and after a 401', async () => {
      const nowPayments = adapter();
      const issued = fake.tokensIssued;
      const [first] = await Promise.all([
        nowPayments.createPayout(payoutRequest()),
        nowPayments.createPayout(payoutRequest()),
      ]);
      await nowPayments.verifyPayout(first!.batchId, fake.verificationCode);
      expect(fake.tokensIssued).toBe(issued + 1);
      const auth = fake.requests.filter((r) => r.path === '/auth').at(-1)!;
      expect(auth.body).toEqual({ email: fake.email, password: fake.password });
      expect(auth.headers['x-api-key']).toBe(fake.apiKey);

      offsetMs = 3 * 60_000;
      await nowPayments.createPayout(payoutRequest());
      expect(fake.tokensIssued).toBe(issued + 1);
      offsetMs = 4 * 60_000 + 1_000;
      await nowPayments.createPayout(payoutRequest());
      expect(fake.tokensIssued).toBe(issued + 2);
      fake.revokeTokens();
      await nowPayments.createPayout(payoutRequest());
      expect(fake.tokensIssued).toBe(issued + 3);

      const wrong = await providerError(adapter({ password: 'nope' }).createPayout(payoutRequest()));
      expect(wrong.details).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });
    });
  });

  it('signs IPN bodies over sorted keys at every depth', () => {
    const a = nowPaymentsSignature('s', { b: 1, a: { d: [{ y: 1, x: 2 }], c: 'x' } });
    const b = nowPaymentsSignature('s', { a: { c: 'x', d: [{ x: 2, y: 1 }] }, b: 1 });
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{128}$/);
  });
});
