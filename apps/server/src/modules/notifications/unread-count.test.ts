import { notificationListSchema } from '@platform/contracts';
import { beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { heldAfterNextQuery } from '../../test/held-database.ts';
import { type SignedUp, signUp } from '../auth/test-support.ts';
import { fund, placeOrder, setReferencePrice } from '../trading/test-support.ts';
import { insertNotifications, type NewNotification, notify } from './service.ts';
import { UnreadCounts } from './unread-count.ts';

function notice(user: SignedUp, title: string): NewNotification {
  return {
    accountId: user.session.account_id,
    type: 'system',
    title,
    message: 'A notice',
    severity: 'info',
    actionUrl: null,
    metadata: {},
    createdAt: new Date(),
  };
}

describeEachDatabase(
  'notifications: the unread count from memory, never stale',
  (server) => {
    let user: SignedUp;

    async function unread(): Promise<{ count: number; ids: string[] }> {
      const response = await server().request('GET', '/v1/notifications?unread_only=true', {
        token: user.session.token,
      });
      expect(response.status).toBe(200);
      const list = notificationListSchema.parse(response.body);
      return { count: list.unread_count, ids: list.notifications.map((row) => row.id) };
    }
    const call = (method: string, path: string) => server().request(method, path, { token: user.session.token });

    beforeEach(async () => {
      user = await signUp(server());
      expect((await unread()).count).toBe(0);
    });

    it('counts a new notification, from any writer, at once', async () => {
      await server().services.notifications.insert(server().db, [notice(user, 'one')]);
      expect((await unread()).count).toBe(1);
      await notify(server().services.notifications.insert, server().db, server().pubsub, [notice(user, 'two')]);
      expect((await unread()).count).toBe(2);
      await server().db.transaction((tx) => server().services.notifications.insert(tx, [notice(user, 'three')]));
      expect((await unread()).count).toBe(3);

      // An order's notification commits with the order: counted as soon as the order is answered.
      setReferencePrice(server(), 'BTC_USD', '50000.00');
      await fund(server(), user.session.account_id, 'BTC', '1');
      const placed = await placeOrder(server(), user.session.token, {
        trading_pair: 'BTC_USD',
        side: 'sell',
        type: 'limit',
        price: '50000.00',
        quantity: '0.1',
      });
      expect(placed.status).toBe(201);
      expect((await unread()).count).toBe(4);
    });

    it('counts down after mark read, delete, mark all read and clear', async () => {
      await server().services.notifications.insert(
        server().db,
        ['a', 'b', 'c', 'd', 'e'].map((title) => notice(user, title)),
      );
      const { count, ids } = await unread();
      expect(count).toBe(5);
      expect((await call('POST', `/v1/notifications/${ids[0]}/read`)).status).toBe(200);
      expect((await unread()).count).toBe(4);
      expect((await call('DELETE', `/v1/notifications/${ids[1]}`)).status).toBe(204);
      expect((await unread()).count).toBe(3);
      expect((await call('POST', '/v1/notifications/read-all')).status).toBe(200);
      expect((await unread()).count).toBe(0);
      await server().services.notifications.insert(server().db, [notice(user, 'f')]);
      expect((await unread()).count).toBe(1);
      expect((await call('DELETE', '/v1/notifications')).status).toBe(200);
      expect((await unread()).count).toBe(0);
    });

    it('does not keep a count that a read straddling an insert read', async () => {
      const held = heldAfterNextQuery(server().db);
      const counts = new UnreadCounts(held.db);
      held.holdNext();
      const straddling = counts.count(user.session.account_id);
      await insertNotifications(counts, held.db, [notice(user, 'during the read')]);
      held.release();
      expect(await straddling).toBe(0);
      expect(await counts.count(user.session.account_id)).toBe(1);
    });
  },
  { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' },
);
