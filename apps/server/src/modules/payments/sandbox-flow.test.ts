import type { CheckoutDeposit, LightningPayment, Payment } from '@platform/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { balance } from '../trading/test-support.ts';
import { type Account, depositEntries, eventually, signUpAccount } from './test-support.ts';

/** Presses a button of the sandbox's pages, as the payer's browser would (a form post, answered 303). */
async function press(server: TestServer, path: string): Promise<number> {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', redirect: 'manual' });
  await response.arrayBuffer();
  return response.status;
}

const checkoutPath = (checkoutUrl: string) => new URL(checkoutUrl).pathname;

describeEachDatabase(
  'payments end to end through the sandbox provider (hosted checkout, confirmations, signed webhooks, Lightning)',
  (server) => {
    let alice: Account;

    const deposit = (body: Record<string, unknown>) =>
      server().request<CheckoutDeposit>('POST', '/api/v1/wallet/deposit', { token: alice.token, body });
    const read = async (id: string) =>
      (await server().request<CheckoutDeposit>('GET', `/api/v1/wallet/deposit/${id}`, { token: alice.token })).body;

    beforeAll(async () => {
      alice = await signUpAccount(server());
    });

    describe('checkout deposits', () => {
      it('pay: confirming credits nothing, the confirmed payment credits once', async () => {
        const created = await deposit({ currency: 'btc', amount: '0.01', payment_method: 'crypto' });
        expect(created.status).toBe(201);
        expect(created.body.checkout_url).toContain('/sandbox/checkout/');
        expect(created.body.crypto_address).not.toBeNull();
        const page = await fetch(created.body.checkout_url);
        expect(page.status).toBe(200);
        await page.arrayBuffer();

        expect(await press(server(), `${checkoutPath(created.body.checkout_url)}/pay`)).toBe(303);
        const confirming = await eventually(
          () => read(created.body.id),
          (found) => found.payment_status !== 'waiting',
        );
        if (confirming.payment_status === 'confirming') {
          expect(confirming.status).toBe('pending');
          expect(await depositEntries(server(), created.body.id)).toBe(0);
        }
        const done = await eventually(
          () => read(created.body.id),
          (found) => found.status === 'completed',
        );
        expect(done).toMatchObject({ payment_status: 'paid', credited_amount: '0.01' });
        expect(await balance(server(), alice.id, 'BTC')).toMatchObject({ available: '0.01' });
        expect(await depositEntries(server(), created.body.id)).toBe(1);
      });

      it('underpay: credits what arrived; expire: fails and credits nothing', async () => {
        const short = await deposit({ currency: 'eth', amount: '0.5' });
        expect(await press(server(), `${checkoutPath(short.body.checkout_url)}/underpay`)).toBe(303);
        const underpaid = await eventually(
          () => read(short.body.id),
          (found) => found.status === 'completed',
        );
        expect(underpaid).toMatchObject({ payment_status: 'underpaid', credited_amount: '0.25' });
        expect(await balance(server(), alice.id, 'ETH')).toMatchObject({ available: '0.25' });

        const lapsed = await deposit({ currency: 'eth', amount: '1' });
        expect(await press(server(), `${checkoutPath(lapsed.body.checkout_url)}/expire`)).toBe(303);
        const expired = await eventually(
          () => read(lapsed.body.id),
          (found) => found.status === 'failed',
        );
        expect(expired.payment_status).toBe('expired');
        expect(await depositEntries(server(), lapsed.body.id)).toBe(0);
        expect(await balance(server(), alice.id, 'ETH')).toMatchObject({ available: '0.25' });
      });
    });

    describe('Lightning', () => {
      it('a standalone invoice marked paid in the sandbox credits its BTC once', async () => {
        const before = (await balance(server(), alice.id, 'BTC')).available;
        const created = await server().request<LightningPayment>('POST', '/v1/triple-a/lightning/payment', {
          token: alice.token,
          body: { amount: '0.0005', description: 'Tip' },
        });
        expect(created.status).toBe(201);
        expect(created.body.invoice).toMatch(/^lntb/);
        expect(await press(server(), `/sandbox/lightning/${created.body.payment_hash}/pay`)).toBe(303);
        await eventually(
          async () =>
            (
              await server().request<LightningPayment>('GET', `/v1/triple-a/lightning/payment/${created.body.id}`, {
                token: alice.token,
              })
            ).body,
          (found) => found.status === 'paid',
        );
        expect(await depositEntries(server(), created.body.id)).toBe(1);
        const after = (await balance(server(), alice.id, 'BTC')).available;
        expect(Number(after) - Number(before)).toBeCloseTo(0.0005, 10);
      });

      it('a facade payment paid through its selected LNBC invoice credits the order amount', async () => {
        const created = await server().request<Payment>('POST', '/v1/triple-a/payment', {
          token: alice.token,
          body: { description: 'Invoice 7', amount: '0.002', currency: 'btc' },
        });
        expect(created.status).toBe(201);
        const selected = await server().request('POST', `/v1/triple-a/payment/${created.body.id}/select`, {
          token: alice.token,
          body: { crypto_currency: 'LNBC' },
        });
        expect(selected.status).toBe(200);
        expect(selected.body.amount).toBe('0.002');
        expect(await press(server(), `/sandbox/lightning/${selected.body.payment_hash}/pay`)).toBe(303);
        const paid = await eventually(
          async () =>
            (await server().request<Payment>('GET', `/v1/triple-a/payment/${created.body.id}`, { token: alice.token }))
              .body,
          (found) => found.status === 'paid',
        );
        expect(paid.finalAmount).toBe('0.002');
        expect(await depositEntries(server(), created.body.id)).toBe(1);
      });
    });
  },
  {
    PRICE_FEED_ENABLED: 'false',
    RATE_LIMIT_ENABLED: 'false',
    PAYMENT_PROVIDER: 'sandbox',
    SANDBOX_CONFIRM_DELAY_MS: '300',
  },
);
