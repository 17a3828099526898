import type { CardOptions, CardQuote, CheckoutDeposit } from '@platform/contracts';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { balance } from '../trading/test-support.ts';
import { type Account, depositEntries, eventually, signUpAccount } from './test-support.ts';

/** Presses a button of the sandbox's card page, as the payer's browser would (a form post, answered 303). */
async function press(server: TestServer, checkoutUrl: string, action: string): Promise<{ status: number; to: string }> {
  const response = await fetch(`${server.url}${new URL(checkoutUrl).pathname}/${action}`, {
    method: 'POST',
    redirect: 'manual',
  });
  await response.arrayBuffer();
  return { status: response.status, to: response.headers.get('location') ?? '' };
}

describeEachDatabase(
  'buying with a card through the sandbox hosted checkout',
  (server) => {
    let alice: Account;
    const buy = (body: Record<string, unknown>) =>
      server().request<CheckoutDeposit>('POST', '/api/v1/wallet/deposit', {
        token: alice.token,
        body: { payment_method: 'card', ...body },
      });
    const read = async (id: string) =>
      (await server().request<CheckoutDeposit>('GET', `/api/v1/wallet/deposit/${id}`, { token: alice.token })).body;

    beforeAll(async () => {
      alice = await signUpAccount(server());
    });

    it('tells what can be bought by card and discloses the fee before paying', async () => {
      const options = await server().request<CardOptions>('GET', '/api/v1/wallet/card/options', { token: alice.token });
      expect(options.body).toEqual({ currencies: ['USD', 'USDT', 'USDC', 'BTC', 'ETH'], fee_percent: '3.5' });
      const quote = await server().request<CardQuote>('GET', '/api/v1/wallet/card/quote?currency=usd&amount=100', {
        token: alice.token,
      });
      expect(quote.body).toEqual({ currency: 'USD', amount: '100', fee: '3.5', fee_percent: '3.5', total: '103.5' });
      // The fee is rounded up to the currency's decimals: 3.5 % of 10.01 USDT is 0.35035.
      const odd = await server().request<CardQuote>('GET', '/api/v1/wallet/card/quote?currency=USDT&amount=10.01', {
        token: alice.token,
      });
      expect(odd.body).toMatchObject({ fee: '0.36', total: '10.37' });
      const doge = await server().request('GET', '/api/v1/wallet/card/quote?currency=DOGE&amount=100', {
        token: alice.token,
      });
      expect(doge.status).toBe(400);
      expect(doge.body.error).toMatchObject({
        code: 'CARD_NOT_AVAILABLE',
        message: 'DOGE cannot be bought with a card',
      });
      const below = await server().request('GET', '/api/v1/wallet/card/quote?currency=USD&amount=0.5', {
        token: alice.token,
      });
      expect(below.body.error).toMatchObject({
        code: 'AMOUNT_BELOW_MINIMUM',
        message: 'Minimum purchase amount is 1 USD',
      });
    });

    it('refuses a card purchase of a currency the provider does not sell by card, and writes nothing', async () => {
      const refused = await server().request('POST', '/api/v1/wallet/deposit', {
        token: alice.token,
        body: { payment_method: 'card', currency: 'doge', amount: '100' },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('CARD_NOT_AVAILABLE');
    });

    it('pay: the card page shows fee and total; the confirmed payment credits the amount once', async () => {
      const created = await buy({ currency: 'usd', amount: '250' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        payment_method: 'card',
        currency: 'USD',
        amount: '250',
        crypto_address: null,
      });
      const page = await fetch(created.body.checkout_url);
      const html = await page.text();
      expect(html).toContain('Card fee');
      expect(html).toContain('8.75 USD');
      expect(html).toContain('Pay 258.75 USD');
      expect(html).not.toContain('Pay less');

      expect((await press(server(), created.body.checkout_url, 'underpay')).status).toBe(409);
      const paid = await press(server(), created.body.checkout_url, 'pay');
      expect(paid).toMatchObject({ status: 303 });
      expect(paid.to).toContain('/wallet?action=deposit');
      const done = await eventually(
        () => read(created.body.id),
        (found) => found.status === 'completed',
      );
      expect(done).toMatchObject({ payment_status: 'paid', credited_amount: '250' });
      expect(await balance(server(), alice.id, 'USD')).toMatchObject({ available: '250' });
      // A second press, and the webhook replays the provider keeps sending, credit nothing more.
      expect((await press(server(), created.body.checkout_url, 'pay')).status).toBe(409);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await depositEntries(server(), created.body.id)).toBe(1);
      expect(await balance(server(), alice.id, 'USD')).toMatchObject({ available: '250' });
    });

    it('decline: the payment fails, the payer goes back to the cancel page, nothing is credited', async () => {
      const created = await buy({ currency: 'USDT', amount: '40' });
      const declined = await press(server(), created.body.checkout_url, 'decline');
      expect(declined.status).toBe(303);
      expect(declined.to).toContain('cancelled=true');
      const failed = await eventually(
        () => read(created.body.id),
        (found) => found.status === 'failed',
      );
      expect(failed.payment_status).toBe('failed');
      expect(await depositEntries(server(), created.body.id)).toBe(0);
      expect(await balance(server(), alice.id, 'USDT')).toMatchObject({ available: '0' });
      expect((await press(server(), created.body.checkout_url, 'pay')).status).toBe(409);
    });

    it('a crypto checkout cannot be declined like a card', async () => {
      const created = await server().request<CheckoutDeposit>('POST', '/api/v1/wallet/deposit', {
        token: alice.token,
        body: { currency: 'btc', amount: '0.01' },
      });
      expect(created.body.payment_method).toBe('crypto');
      expect((await press(server(), created.body.checkout_url, 'decline')).status).toBe(409);
    });
  },
  {
    PRICE_FEED_ENABLED: 'false',
    RATE_LIMIT_ENABLED: 'false',
    PAYMENT_PROVIDER: 'sandbox',
    SANDBOX_CONFIRM_DELAY_MS: '300',
  },
);
