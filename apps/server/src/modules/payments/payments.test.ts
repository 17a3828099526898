import type {
  CheckoutDeposit,
  DepositHistoryResponse,
  LightningPayment,
  Notification,
  Payment,
  PaymentBatchStatusResponse,
} from '@platform/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PayoutState } from '../../adapters/payments/index.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { balance } from '../trading/test-support.ts';
import {
  type Account,
  depositEntries,
  eventually,
  type FakeProvider,
  sendWebhook,
  signUpAccount,
  useFakeProvider,
} from './test-support.ts';

type Failure = { error?: { code: string; message: string; details?: unknown } };

describeEachDatabase(
  'payments: checkout deposits, payments, Lightning and webhooks (fake provider)',
  (server) => {
    let provider: FakeProvider;
    let alice: Account;
    let bob: Account;

    const deposit = (account: Account, body: Record<string, unknown>, key?: string) =>
      server().request<CheckoutDeposit & Failure>('POST', '/api/v1/wallet/deposit', {
        token: account.token,
        body,
        ...(key ? { headers: { 'idempotency-key': key } } : {}),
      });
    const createPayment = (account: Account, body: Record<string, unknown>) =>
      server().request<Payment & Failure>('POST', '/v1/triple-a/payment', { token: account.token, body });
    const getDeposit = async (account: Account, id: string) =>
      (await server().request<CheckoutDeposit>('GET', `/api/v1/wallet/deposit/${id}`, { token: account.token })).body;

    beforeAll(async () => {
      provider = useFakeProvider(server());
      alice = await signUpAccount(server());
      bob = await signUpAccount(server());
    });

    describe('checkout deposits (POST /api/v1/wallet/deposit)', () => {
      it('creates a hosted checkout: confirming credits nothing, paid credits once', async () => {
        const created = await deposit(alice, { currency: 'btc', amount: '0.5', payment_method: 'crypto' });
        expect(created.status).toBe(201);
        expect(created.body).toMatchObject({
          status: 'pending',
          payment_status: 'waiting',
          currency: 'BTC',
          amount: '0.5',
          credited_amount: null,
          crypto_currency: 'BTC',
          crypto_amount: '0.5',
        });
        expect(created.body.checkout_url).toMatch(/^https:\/\/fake\.example\/checkout\//);
        expect(created.body.crypto_address).toMatch(/^bc1/);
        expect(Date.parse(created.body.expires_at)).toBeGreaterThan(Date.now());
        const sent = [...provider.checkouts.values()].find((entry) => entry.request.reference === created.body.id);
        expect(sent?.request).toMatchObject({
          orderCurrency: 'BTC',
          orderAmount: '0.5',
          payCurrency: 'BTC',
          notifyUrl: `${server().url}/v1/webhooks/sandbox`,
          payer: { accountId: alice.id },
        });
        expect(sent?.request.successUrl).toContain('/wallet?action=deposit');
        const reference = sent?.state.providerReference ?? '';

        const confirming = await sendWebhook(server(), provider, provider.setPayment(reference, 'confirming'));
        expect(confirming.status).toBe(200);
        expect(await getDeposit(alice, created.body.id)).toMatchObject({
          status: 'pending',
          payment_status: 'confirming',
        });
        expect(await balance(server(), alice.id, 'BTC')).toMatchObject({ available: '0' });

        const paid = provider.setPayment(reference, 'paid');
        const first = await sendWebhook(server(), provider, paid);
        expect(first.status).toBe(200);
        expect(first.body).toEqual({ received: true, duplicate: false });
        expect(await balance(server(), alice.id, 'BTC')).toMatchObject({ available: '0.5' });
        expect(await getDeposit(alice, created.body.id)).toMatchObject({
          status: 'completed',
          payment_status: 'paid',
          credited_amount: '0.5',
        });
        const notes = await server().request<{ notifications: Notification[] }>('GET', '/v1/notifications', {
          token: alice.token,
        });
        expect(notes.body.notifications[0]).toMatchObject({ type: 'deposit', title: 'Deposit confirmed' });
        const history = await server().request<DepositHistoryResponse>('GET', '/api/v1/wallet/deposits', {
          token: alice.token,
        });
        expect(history.body.deposits[0]).toMatchObject({
          id: created.body.id,
          method: 'checkout',
          status: 'completed',
        });

        // The same webhook 200 times: every one answered 200, one credit.
        const replays = [];
        for (let i = 0; i < 200; i++) replays.push(sendWebhook(server(), provider, paid));
        const answers = await Promise.all(replays);
        expect(answers.every((answer) => answer.status === 200)).toBe(true);
        // A later event saying the same (a new event id), and a late 'confirming', change nothing either.
        expect((await sendWebhook(server(), provider, provider.setPayment(reference, 'paid'))).status).toBe(200);
        expect((await sendWebhook(server(), provider, provider.setPayment(reference, 'confirming'))).status).toBe(200);
        expect(await balance(server(), alice.id, 'BTC')).toMatchObject({ available: '0.5' });
        expect(await depositEntries(server(), created.body.id)).toBe(1);
        expect(await getDeposit(alice, created.body.id)).toMatchObject({ payment_status: 'paid' });
      });

      it('credits an underpaid deposit what was confirmed', async () => {
        const created = await deposit(bob, { currency: 'usdt', amount: 100 });
        expect(created.status).toBe(201);
        const reference = providerReferenceOf(created.body.id);
        await sendWebhook(server(), provider, provider.setPayment(reference, 'underpaid', { confirmed: '60.127' }));
        expect(await getDeposit(bob, created.body.id)).toMatchObject({
          status: 'completed',
          payment_status: 'underpaid',
          credited_amount: '60.12',
        });
        expect(await balance(server(), bob.id, 'USDT')).toMatchObject({ available: '60.12' });
      });

      it('returns the same deposit for a retry with the same Idempotency-Key', async () => {
        const calls = provider.createCalls;
        const first = await deposit(alice, { currency: 'eth', amount: '2' }, 'dep-key-1');
        const again = await deposit(alice, { currency: 'ETH', amount: '2.0' }, 'dep-key-1');
        expect(first.status).toBe(201);
        expect(again.status).toBe(200);
        expect(again.body.id).toBe(first.body.id);
        expect(provider.createCalls).toBe(calls + 1);
        const concurrent = await Promise.all(
          Array.from({ length: 5 }, () => deposit(alice, { currency: 'eth', amount: '3' }, 'dep-key-2')),
        );
        expect(new Set(concurrent.map((answer) => answer.body.id)).size).toBe(1);
        const reused = await deposit(alice, { currency: 'eth', amount: '5' }, 'dep-key-1');
        expect(reused.status).toBe(409);
        expect(reused.body.error?.code).toBe('IDEMPOTENCY_KEY_REUSED');
        // The same key names another deposit for another account.
        expect((await deposit(bob, { currency: 'eth', amount: '2' }, 'dep-key-1')).body.id).not.toBe(first.body.id);
      });

      it('answers 502 when the provider fails, leaving nothing half-done; a retry tries afresh', async () => {
        provider.failCreates = true;
        const failed = await deposit(alice, { currency: 'btc', amount: '0.1' }, 'dep-outage');
        provider.failCreates = false;
        expect(failed.status).toBe(502);
        expect(failed.body.error?.code).toBe('PROVIDER_UNAVAILABLE');
        const rows = await server().db.query<{ status: string; idempotency_key: string | null }>(
          `SELECT status, idempotency_key FROM payments WHERE account_id = $1 AND failure_reason IS NOT NULL`,
          [alice.id],
        );
        expect(rows.rows).toEqual([{ status: 'failed', idempotency_key: null }]);
        const history = await server().request<DepositHistoryResponse>('GET', '/api/v1/wallet/deposits?limit=100', {
          token: alice.token,
        });
        expect(history.body.deposits.every((item) => item.checkout_url !== null || item.method === 'address')).toBe(
          true,
        );
        const retried = await deposit(alice, { currency: 'btc', amount: '0.1' }, 'dep-outage');
        expect(retried.status).toBe(201);
      });

      it('refuses bad inputs in the §5 words', async () => {
        const cases: [Record<string, unknown>, number, string, string?][] = [
          [{ currency: 'btc', amount: '0' }, 400, 'AMOUNT_NOT_POSITIVE', 'Amount must be greater than zero'],
          [{ currency: 'btc', amount: '-2' }, 400, 'AMOUNT_NOT_POSITIVE'],
          [{ currency: 'btc', amount: '' }, 400, 'INVALID_AMOUNT', 'Invalid amount'],
          [{ currency: 'btc', amount: 'abc' }, 400, 'INVALID_AMOUNT', 'Invalid amount'],
          [
            { currency: 'btc', amount: '0.123456789' },
            400,
            'INVALID_AMOUNT',
            'Amount has more than 8 decimals for BTC',
          ],
          [{ currency: 'usdt', amount: '10.001' }, 400, 'INVALID_AMOUNT', 'Amount has more than 2 decimals for USDT'],
          [
            { currency: 'btc', amount: '99999999999999999999' },
            400,
            'INVALID_AMOUNT',
            'Maximum deposit amount is 1000 BTC',
          ],
          [{ currency: 'btc', amount: '0.00001' }, 400, 'AMOUNT_BELOW_MINIMUM', 'Minimum deposit amount is 0.0001 BTC'],
          [{ currency: 'doge', amount: '1e5' }, 400, 'INVALID_AMOUNT'],
          [{ currency: 'foo', amount: '1' }, 400, 'CURRENCY_NOT_SUPPORTED', 'Currency FOO is not supported'],
          // Cards buy USD and stable coins only (payments/card.ts); an unknown method is not a method.
          [{ currency: 'btc', amount: '1', payment_method: 'card' }, 400, 'CARD_NOT_AVAILABLE'],
          [{ currency: 'btc', amount: '1', payment_method: 'cheque' }, 400, 'VALIDATION_ERROR'],
          [{ currency: 'btc', amount: { value: 1 } }, 400, 'VALIDATION_ERROR'],
          [{ amount: '1' }, 400, 'VALIDATION_ERROR'],
        ];
        for (const [body, status, code, message] of cases) {
          const answer = await deposit(alice, body);
          expect(answer.status, JSON.stringify(body)).toBe(status);
          expect(answer.body.error?.code, JSON.stringify(body)).toBe(code);
          if (message) expect(answer.body.error?.message).toBe(message);
        }
        expect((await deposit(alice, { currency: 'btc', amount: '1' }, 'bad key!')).status).toBe(400);
        expect(
          (await server().request('POST', '/api/v1/wallet/deposit', { body: { currency: 'btc', amount: '1' } })).status,
        ).toBe(401);
      });

      it('shows a deposit only to its owner', async () => {
        const created = await deposit(alice, { currency: 'btc', amount: '0.2' });
        const stranger = await server().request<Failure>('GET', `/api/v1/wallet/deposit/${created.body.id}`, {
          token: bob.token,
        });
        expect(stranger.status).toBe(404);
        expect(stranger.body.error).toMatchObject({ code: 'PAYMENT_NOT_FOUND', message: 'Payment not found' });
        const facade = await server().request<Failure>('GET', `/v1/triple-a/payment/${created.body.id}`, {
          token: bob.token,
        });
        expect(facade.status).toBe(404);
      });

      it('is reconciled by polling when its webhook is lost', async () => {
        const created = await deposit(bob, { currency: 'ltc', amount: '4' });
        provider.setPayment(providerReferenceOf(created.body.id), 'paid');
        const module = server().services.payments;
        await module.reconciler.pass(0);
        await module.reconciler.pass(0);
        expect(await getDeposit(bob, created.body.id)).toMatchObject({ status: 'completed', credited_amount: '4' });
        expect(await depositEntries(server(), created.body.id)).toBe(1);
        expect(await balance(server(), bob.id, 'LTC')).toMatchObject({ available: '4' });
      });

      it('fails a row a crash left before its checkout existed, releasing its key', async () => {
        const id = crypto.randomUUID();
        const longAgo = new Date(Date.now() - 5 * 60_000);
        await server().db.query(
          `INSERT INTO payments (id, account_id, kind, description, order_currency, order_amount, provider, status,
             idempotency_key, expires_at, created_at, updated_at)
           VALUES ($1, $2, 'deposit', 'interrupted', 'BTC', 1, 'sandbox', 'creating', 'crash-key', $3, $3, $3)`,
          [id, bob.id, longAgo],
        );
        await server().services.payments.reconciler.pass(0);
        const row = await server().db.query(`SELECT status, idempotency_key FROM payments WHERE id = $1`, [id]);
        expect(row.rows[0]).toEqual({ status: 'failed', idempotency_key: null });
        expect((await deposit(bob, { currency: 'btc', amount: '1' }, 'crash-key')).status).toBe(201);
      });
    });

    describe('webhooks that fail the check credit nothing', () => {
      let reference: string;
      let depositId: string;

      beforeAll(async () => {
        const created = await deposit(bob, { currency: 'sol', amount: '10' });
        depositId = created.body.id;
        reference = providerReferenceOf(depositId);
      });

      it.each([
        [
          'forged (wrong secret)',
          (raw: string) => provider.sign(raw, Date.now() / 1000, 'not-the-secret'),
          'WEBHOOK_SIGNATURE_INVALID',
        ],
        ['unsigned', () => ({ 'content-type': 'application/json' }), 'WEBHOOK_SIGNATURE_INVALID'],
        [
          'stale (signed 10 minutes ago)',
          (raw: string) => provider.sign(raw, Date.now() / 1000 - 600),
          'WEBHOOK_TIMESTAMP_INVALID',
        ],
        [
          'tampered after signing',
          (raw: string) => provider.sign(raw.replace('"paid"', '"waiting"')),
          'WEBHOOK_SIGNATURE_INVALID',
        ],
      ])('%s: 401, recorded, nothing credited', async (_name, headersOf, code) => {
        const body = JSON.stringify(provider.paymentEvent(reference, 'paid'));
        const before = await server().db.query(`SELECT count(*)::int AS count FROM webhook_rejections`);
        const answer = await sendWebhook(server(), provider, body, headersOf(body));
        expect(answer.status).toBe(401);
        expect((answer.body as Failure).error?.code).toBe(code);
        const after = await server().db.query(`SELECT count(*)::int AS count FROM webhook_rejections`);
        expect(Number(after.rows[0]?.count)).toBe(Number(before.rows[0]?.count) + 1);
        expect(await depositEntries(server(), depositId)).toBe(0);
        expect(await balance(server(), bob.id, 'SOL')).toMatchObject({ available: '0' });
      });

      it('a malformed body and another provider’s path are refused too', async () => {
        const garbage = await sendWebhook(server(), provider, '{not json');
        expect(garbage.status).toBe(401);
        const elsewhere = await server().request('POST', '/v1/webhooks/nowpayments', {
          rawBody: '{}',
          headers: { 'content-type': 'application/json' },
        });
        expect(elsewhere.status).toBe(404);
      });

      it('POST /v1/triple-a/webhook/verify tells a good signature from a bad one', async () => {
        const payload = JSON.stringify({ event: 'payment', payment: { hello: 'world' } });
        const unix = Math.floor(Date.now() / 1000);
        const header = provider.sign(payload, unix)['triplea-signature'] ?? '';
        const signature = header.split('v1=')[1];
        const verify = (body: Record<string, unknown>) =>
          server().request<{ valid: boolean }>('POST', '/v1/triple-a/webhook/verify', { token: alice.token, body });
        expect((await verify({ payload, signature, timestamp: unix })).body).toEqual({ valid: true });
        expect((await verify({ payload, signature, timestamp: String(unix) })).body).toEqual({ valid: true });
        expect((await verify({ payload: `${payload} `, signature, timestamp: unix })).body).toEqual({ valid: false });
        expect((await verify({ payload, signature: 'ab'.repeat(32), timestamp: unix })).body).toEqual({ valid: false });
        expect((await verify({ payload, signature, timestamp: unix - 3600 })).body).toEqual({ valid: false });
        expect((await verify({ payload: 42, signature })).status).toBe(400);
      });
    });

    describe('payments of the facade (/v1/triple-a)', () => {
      let payment: Payment;

      beforeAll(async () => {
        const created = await createPayment(alice, { description: 'Order 42', amount: '25', currency: 'usd' });
        expect(created.status).toBe(201);
        payment = created.body;
      });

      it('creates a payment with its checkout, status and expiry', () => {
        expect(payment).toMatchObject({
          reference: payment.id,
          description: 'Order 42',
          amount: '25',
          currency: 'USD',
          status: 'waiting',
          final: false,
          finalAmount: null,
          lightning: null,
        });
        expect(payment.payment_reference).toMatch(/^PMA-/);
        expect(payment.checkout_url).toMatch(/^https:\/\/fake\.example/);
        const minutes = (Date.parse(payment.expiresAt) - Date.now()) / 60_000;
        expect(minutes).toBeGreaterThan(20);
      });

      it('reads a payment by id or provider reference, its crypto details, and hides it from others', async () => {
        for (const id of [payment.id, payment.payment_reference ?? '']) {
          const read = await server().request<Payment>('GET', `/v1/triple-a/payment/${id}`, { token: alice.token });
          expect(read.status).toBe(200);
          expect(read.body.id).toBe(payment.id);
        }
        const crypto = await server().request('GET', `/v1/triple-a/payment/${payment.id}/crypto`, {
          token: alice.token,
        });
        expect(crypto.body).toMatchObject({
          id: payment.id,
          crypto_currency: 'BTC',
          crypto_amount: '0.001',
          status: 'waiting',
        });
        for (const path of [`/v1/triple-a/payment/${payment.id}`, `/v1/triple-a/payment/${payment.id}/crypto`]) {
          const stranger = await server().request<Failure>('GET', path, { token: bob.token });
          expect(stranger.status).toBe(404);
          expect(stranger.body.error?.code).toBe('PAYMENT_NOT_FOUND');
        }
        const select = await server().request<Failure>('POST', `/v1/triple-a/payment/${payment.id}/select`, {
          token: bob.token,
          body: { crypto_currency: 'LNBC' },
        });
        expect(select.status).toBe(404);
        expect((await server().request('GET', '/v1/triple-a/payment/nope', { token: alice.token })).status).toBe(404);
      });

      it('attaches a Lightning invoice on select LNBC, the same one while payable', async () => {
        const selected = await server().request('POST', `/v1/triple-a/payment/${payment.id}/select`, {
          token: alice.token,
          body: { crypto_currency: 'lnbc' },
        });
        expect(selected.status).toBe(200);
        expect(selected.body).toMatchObject({ id: payment.id, crypto_currency: 'LNBC', status: 'waiting' });
        expect(selected.body.invoice).toMatch(/^lntb/);
        expect(selected.body.payment_hash).toMatch(/^[0-9a-f]{64}$/);
        expect(Number(selected.body.amount)).toBeGreaterThan(0);
        const again = await server().request('POST', `/v1/triple-a/payment/${payment.id}/select`, {
          token: alice.token,
          body: { crypto_currency: 'LNBC' },
        });
        expect(again.body.invoice).toBe(selected.body.invoice);
        const read = await server().request<Payment>('GET', `/v1/triple-a/payment/${payment.id}`, {
          token: alice.token,
        });
        expect(read.body.lightning).toMatchObject({
          invoice: selected.body.invoice,
          payment_hash: selected.body.payment_hash,
        });
        expect(read.body.crypto_currency).toBe('LNBC');
        const other = await server().request<Failure>('POST', `/v1/triple-a/payment/${payment.id}/select`, {
          token: alice.token,
          body: { crypto_currency: 'doge' },
        });
        expect(other.status).toBe(400);
        expect(other.body.error).toMatchObject({
          code: 'CURRENCY_NOT_SUPPORTED',
          message: 'Currency DOGE is not supported',
        });
      });

      it('credits the creator once when paid (here through its Lightning invoice)', async () => {
        const invoice = [...provider.invoices.entries()].find(([, entry]) =>
          entry.request.reference.startsWith(payment.id),
        );
        if (!invoice) throw new Error('no invoice');
        const body = provider.payInvoice(invoice[0]);
        for (let i = 0; i < 3; i++) expect((await sendWebhook(server(), provider, body)).status).toBe(200);
        expect(await balance(server(), alice.id, 'USD')).toMatchObject({ available: '25' });
        const read = await server().request<Payment>('GET', `/v1/triple-a/payment/${payment.id}`, {
          token: alice.token,
        });
        expect(read.body).toMatchObject({ status: 'paid', final: true, finalAmount: '25' });
        const late = await server().request<Failure>('POST', `/v1/triple-a/payment/${payment.id}/select`, {
          token: alice.token,
          body: { crypto_currency: 'LNBC' },
        });
        expect(late.body).toMatchObject({ crypto_currency: 'LNBC' });
        // Paid by its checkout as well: still one credit.
        await sendWebhook(server(), provider, provider.setPayment(payment.payment_reference ?? '', 'paid'));
        expect(await depositEntries(server(), payment.id)).toBe(1);
      });

      it('answers the caller’s payments in a batch, naming the others not found', async () => {
        const mine = await createPayment(alice, {
          description: 'Second',
          amount: '0.01',
          currency: 'btc',
          crypto_currency: 'btc',
        });
        const theirs = await createPayment(bob, { description: 'Bob’s', amount: '10', currency: 'usdt' });
        const batch = await server().request<PaymentBatchStatusResponse>('POST', '/v1/triple-a/payment/batch/status', {
          token: alice.token,
          body: { payment_references: [payment.id, mine.body.payment_reference, theirs.body.id, 'PMA-unknown'] },
        });
        expect(batch.status).toBe(200);
        expect(batch.body.payments.map((item) => item.id)).toEqual([payment.id, mine.body.id]);
        expect(batch.body.not_found).toEqual([theirs.body.id, 'PMA-unknown']);
        const empty = await server().request('POST', '/v1/triple-a/payment/batch/status', {
          token: alice.token,
          body: { payment_references: [] },
        });
        expect(empty.status).toBe(400);
      });

      it('refuses bad payment inputs', async () => {
        expect(
          (await createPayment(alice, { description: 'x', amount: '0', currency: 'usd' })).body.error?.message,
        ).toBe('Amount must be greater than zero');
        expect(
          (await createPayment(alice, { description: 'x', amount: '1', currency: 'eur' })).body.error?.message,
        ).toBe('Currency EUR is not supported');
        expect(
          (await createPayment(alice, { description: 'x', amount: '5', currency: 'usd', crypto_currency: 'usd' }))
            .status,
        ).toBe(400);
        expect(
          (await createPayment(alice, { description: 'x'.repeat(201), amount: '5', currency: 'usd' })).status,
        ).toBe(400);
        expect((await createPayment(alice, { amount: '5', currency: 'usd' })).status).toBe(400);
      });
    });

    describe('Lightning payments (/v1/triple-a/lightning/payment)', () => {
      it('creates an invoice, and credits its BTC once paid', async () => {
        const created = await server().request<LightningPayment & Failure>('POST', '/v1/triple-a/lightning/payment', {
          token: bob.token,
          body: { amount: '0.0015', description: 'Coffee' },
        });
        expect(created.status).toBe(201);
        expect(created.body).toMatchObject({
          amount: '0.0015',
          description: 'Coffee',
          status: 'waiting',
          paid_at: null,
        });
        expect(created.body.invoice).toMatch(/^lntb/);
        const invoice = [...provider.invoices.entries()].find(
          ([, entry]) => entry.request.reference === created.body.id,
        );
        if (!invoice) throw new Error('no invoice');
        expect(invoice[1].request).toMatchObject({
          amountBtc: '0.0015',
          notifyUrl: `${server().url}/v1/webhooks/sandbox`,
        });
        const before = (await balance(server(), bob.id, 'BTC')).available;
        const body = provider.payInvoice(invoice[0]);
        const answers = await Promise.all(Array.from({ length: 10 }, () => sendWebhook(server(), provider, body)));
        expect(answers.every((answer) => answer.status === 200)).toBe(true);
        const read = await server().request<LightningPayment>(
          'GET',
          `/v1/triple-a/lightning/payment/${created.body.id}`,
          {
            token: bob.token,
          },
        );
        expect(read.body).toMatchObject({ status: 'paid' });
        expect(read.body.paid_at).not.toBeNull();
        expect(await depositEntries(server(), created.body.id)).toBe(1);
        expect(Number((await balance(server(), bob.id, 'BTC')).available) - Number(before)).toBeCloseTo(0.0015, 10);
        expect(
          (await server().request('GET', `/v1/triple-a/lightning/payment/${created.body.id}`, { token: alice.token }))
            .status,
        ).toBe(404);
      });

      it('is paid through the reconciliation poll when the webhook is lost', async () => {
        const created = await server().request<LightningPayment>('POST', '/v1/triple-a/lightning/payment', {
          token: alice.token,
          body: { amount: 0.0002 },
        });
        const invoice = [...provider.invoices.entries()].find(
          ([, entry]) => entry.request.reference === created.body.id,
        );
        if (!invoice) throw new Error('no invoice');
        provider.payInvoice(invoice[0]);
        await server().services.payments.reconciler.pass(0);
        expect(await depositEntries(server(), created.body.id)).toBe(1);
      });

      it('refuses bad amounts', async () => {
        for (const amount of ['0', '-1', '0.000000001', 'x', '1000000']) {
          const answer = await server().request('POST', '/v1/triple-a/lightning/payment', {
            token: alice.token,
            body: { amount },
          });
          expect(answer.status, amount).toBe(400);
        }
      });
    });

    describe('payout webhooks go to the withdrawals module', () => {
      it('answers only once the listener resolved; a failing listener makes it 500 and the retry reaches it again', async () => {
        const seen: PayoutState[] = [];
        let fail = true;
        server().services.paymentProvider.gateway.onPayoutUpdate(async (payout) => {
          seen.push(payout);
          if (fail) throw new Error('withdrawals module down');
        });
        const body = {
          event: 'payout' as const,
          payout: {
            providerReference: 'PO-1',
            batchId: 'B-1',
            reference: 'withdrawal-1',
            status: 'finished' as const,
            needsVerification: false,
            networkFee: null,
            hash: '0xabc',
            error: null,
            updatedAt: new Date().toISOString(),
          },
        };
        expect((await sendWebhook(server(), provider, body)).status).toBe(500);
        fail = false;
        expect((await sendWebhook(server(), provider, body)).status).toBe(200);
        expect((await sendWebhook(server(), provider, body)).body).toEqual({ received: true, duplicate: true });
        expect(seen.map((payout) => payout.reference)).toEqual(['withdrawal-1', 'withdrawal-1']);
      });
    });

    function providerReferenceOf(depositId: string): string {
      const entry = [...provider.checkouts.values()].find((candidate) => candidate.request.reference === depositId);
      if (!entry) throw new Error(`no checkout for ${depositId}`);
      return entry.state.providerReference;
    }

    it('keeps the books sound', async () => {
      await eventually(
        async () =>
          (await server().db.query(`SELECT count(*)::int AS count FROM payments WHERE status = 'creating'`)).rows[0],
        (row) => Number(row?.count) === 0,
      );
    });
  },
  { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false', PAYMENT_PROVIDER: 'sandbox' },
);
