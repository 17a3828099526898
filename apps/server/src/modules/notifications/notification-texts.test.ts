import { notificationListSchema } from '@platform/contracts';
import { beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { type SignedUp, signUp } from '../auth/test-support.ts';
import { fund, placeOrder, setReferencePrice } from '../trading/test-support.ts';
import type { NewNotification } from './service.ts';

/** Notifications carry a text key and raw params beside the English (docs/i18n.md "Server texts"). */
describeEachDatabase(
  'notification texts',
  (server) => {
    let user: SignedUp;
    const list = async () => {
      const response = await server().request('GET', '/v1/notifications', { token: user.session.token });
      expect(response.status).toBe(200);
      return notificationListSchema.parse(response.body).notifications;
    };
    const row = (overrides: Partial<NewNotification> = {}): NewNotification => ({
      accountId: user.session.account_id,
      type: 'deposit',
      title: 'Deposit confirmed',
      message: 'Your deposit of 0.50000000 BTC is confirmed and available',
      severity: 'success',
      actionUrl: '/wallet',
      metadata: {},
      createdAt: server().clock.now,
      ...overrides,
    });

    beforeEach(async () => {
      user = await signUp(server());
      setReferencePrice(server(), 'BTC_USD', '50000.00');
    });

    it('stores the key and raw params, answers them, and keeps the English for API users', async () => {
      await server().services.notifications.insert(server().db, [
        row({ textKey: 'depositConfirmed', params: { amount: '0.50000000', currency: 'BTC' } }),
      ]);
      const [stored] = await list();
      expect(stored).toMatchObject({
        title: 'Deposit confirmed',
        message: 'Your deposit of 0.50000000 BTC is confirmed and available',
        textKey: 'depositConfirmed',
        params: { amount: '0.50000000', currency: 'BTC' },
      });
    });

    it('answers a notification stored without a key (an old row) with a null key and no params', async () => {
      await server().services.notifications.insert(server().db, [row()]);
      expect((await list())[0]).toMatchObject({ textKey: null, params: {} });
    });

    it('answers only text and number params, whatever the column holds', async () => {
      const [stored] = await server().services.notifications.insert(server().db, [
        row({ textKey: 'depositConfirmed' }),
      ]);
      await server().db.query(`UPDATE notifications SET params = $2::jsonb WHERE id = $1`, [
        stored!.id,
        JSON.stringify({ nested: { a: 1 }, list: [1], nothing: null, flag: true, amount: '1.5', count: 2 }),
      ]);
      expect((await list())[0]?.params).toEqual({ amount: '1.5', count: 2 });
    });

    it('refuses a text key that is not a plain word (NUL, spaces, huge) at the database', async () => {
      for (const textKey of ['order placed', 'x\u0000', 'k'.repeat(65), '../notices']) {
        await expect(
          server().services.notifications.insert(server().db, [row({ textKey: textKey as never })]),
          JSON.stringify(textKey).slice(0, 12),
        ).rejects.toThrow();
      }
      expect(await list()).toEqual([]);
    });

    it('gives an order placed over HTTP its key and raw values: codes and decimal strings', async () => {
      await fund(server(), user.session.account_id, 'USD', '1000');
      const placed = await placeOrder(server(), user.session.token, {
        trading_pair: 'BTC_USD',
        side: 'buy',
        type: 'limit',
        price: '49000.00',
        quantity: '0.01',
      });
      expect(placed.status).toBe(201);
      let notices = await list();
      for (let i = 0; i < 50 && notices.length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        notices = await list();
      }
      expect(notices[0]).toMatchObject({
        title: 'Order placed',
        message: 'Buy 0.01 BTC at 49,000.00 USD',
        textKey: 'orderPlaced',
        params: {
          pair: 'BTC_USD',
          base: 'BTC',
          quote: 'USD',
          side: 'buy',
          type: 'limit',
          quantity: '0.0100000',
          price: '49000.00',
          filled: '0.0000000',
        },
      });
      expect(notices[0]?.params).not.toHaveProperty('averagePrice');
    });
  },
  { PRICE_FEED_ENABLED: 'false' },
);
