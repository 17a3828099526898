import { notificationListSchema, STORED_NOTIFICATIONS_MAX } from '@platform/contracts';
import { beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { type SignedUp, signUp } from '../auth/test-support.ts';
import type { NewNotification } from './service.ts';

describeEachDatabase('notifications', (server) => {
  let user: SignedUp;
  let other: SignedUp;

  const as = (signedUp: SignedUp) => ({ token: signedUp.session.token });
  const list = async (signedUp = user, query = '') => {
    const response = await server().request('GET', `/v1/notifications${query}`, as(signedUp));
    expect(response.status).toBe(200);
    return notificationListSchema.parse(response.body);
  };

  /** Stores `count` notifications for the account, one second apart, titled "#0", "#1", ... */
  async function seed(signedUp: SignedUp, count: number, firstIndex = 0): Promise<string[]> {
    const start = server().clock.now.getTime();
    const rows = Array.from({ length: count }, (_, offset) =>
      notification(signedUp, firstIndex + offset, new Date(start + (firstIndex + offset) * 1000)),
    );
    const stored = await server().services.notifications.insert(server().db, rows);
    return stored.map((row) => row.id);
  }

  beforeEach(async () => {
    // Fresh accounts per test: every test starts from an empty list.
    user = await signUp(server());
    other = await signUp(server());
  });

  it('starts empty and refuses anonymous callers', async () => {
    expect(await list()).toEqual({ notifications: [], unread_count: 0 });
    expect((await server().request('GET', '/v1/notifications')).status).toBe(401);
    expect((await server().request('POST', '/v1/notifications/read-all')).status).toBe(401);
    expect((await server().request('DELETE', '/v1/notifications')).status).toBe(401);
  });

  it('lists only the caller’s notifications, newest first, in the spec’s fields', async () => {
    const [first] = await seed(user, 3);
    await seed(other, 2);
    const answer = await list();
    expect(answer.unread_count).toBe(3);
    expect(answer.notifications.map((n) => n.title)).toEqual(['#2', '#1', '#0']);
    expect(answer.notifications[2]).toEqual({
      id: first,
      timestamp: expect.any(Number),
      isRead: false,
      type: 'order',
      title: '#0',
      message: 'Buy 0.5 BTC at 67,250.00 USD',
      severity: 'info',
      actionUrl: '/trade?pair=BTC/USD',
      metadata: { tradingPair: 'BTC_USD', orderId: expect.any(String), amount: '0.5', price: '67250.00' },
      textKey: null,
      params: {},
    });
    expect(answer.notifications[0]!.timestamp - answer.notifications[2]!.timestamp).toBe(2000);
    expect((await list(other)).notifications).toHaveLength(2);
  });

  it('orders a batch stored at one instant by insertion', async () => {
    const now = server().clock.now;
    const rows = [0, 1, 2].map((index) => notification(user, index, now));
    await server().services.notifications.insert(server().db, rows);
    expect((await list()).notifications.map((n) => n.title)).toEqual(['#2', '#1', '#0']);
  });

  it('filters unread and limits the page, while unread_count counts them all', async () => {
    const ids = await seed(user, 5);
    await server().request('POST', `/v1/notifications/${ids[4]}/read`, as(user));
    const unread = await list(user, '?unread_only=true&limit=2');
    expect(unread.notifications.map((n) => n.title)).toEqual(['#3', '#2']);
    expect(unread.unread_count).toBe(4);
    expect((await list(user, '?unread_only=false')).notifications).toHaveLength(5);
    for (const query of ['?limit=0', `?limit=${STORED_NOTIFICATIONS_MAX + 1}`, '?unread_only=maybe']) {
      const response = await server().request('GET', `/v1/notifications${query}`, as(user));
      expect(response.status, query).toBe(400);
    }
  });

  it('marks one read; another account’s or an unknown id is 404 and changes nothing', async () => {
    const [mine] = await seed(user, 2);
    const [theirs] = await seed(other, 1);
    const marked = await server().request('POST', `/v1/notifications/${mine}/read`, as(user));
    expect(marked.status).toBe(200);
    expect(marked.body).toMatchObject({ id: mine, isRead: true });
    expect((await list()).unread_count).toBe(1);
    // Marking again is fine: the outcome is the same.
    expect((await server().request('POST', `/v1/notifications/${mine}/read`, as(user))).status).toBe(200);

    const foreign = await server().request('POST', `/v1/notifications/${theirs}/read`, as(user));
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Notification not found' });
    expect((await list(other)).unread_count).toBe(1);
    const unknown = crypto.randomUUID();
    expect((await server().request('POST', `/v1/notifications/${unknown}/read`, as(user))).status).toBe(404);
    expect((await server().request('POST', '/v1/notifications/not-a-uuid/read', as(user))).status).toBe(400);
  });

  it('marks all read, for the caller only', async () => {
    await seed(user, 3);
    await seed(other, 2);
    const response = await server().request('POST', '/v1/notifications/read-all', as(user));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ changed: 3, unread_count: 0 });
    const answer = await list();
    expect(answer.unread_count).toBe(0);
    expect(answer.notifications.every((n) => n.isRead)).toBe(true);
    expect((await list(other)).unread_count).toBe(2);
  });

  it('deletes one; another account’s id is 404 and theirs stays', async () => {
    const [mine, kept] = await seed(user, 2);
    const [theirs] = await seed(other, 1);
    const deleted = await server().request('DELETE', `/v1/notifications/${mine}`, as(user));
    expect(deleted.status).toBe(204);
    expect((await list()).notifications.map((n) => n.id)).toEqual([kept]);
    expect((await server().request('DELETE', `/v1/notifications/${mine}`, as(user))).status).toBe(404);
    expect((await server().request('DELETE', `/v1/notifications/${theirs}`, as(user))).status).toBe(404);
    expect((await list(other)).notifications.map((n) => n.id)).toEqual([theirs]);
  });

  it('clears the caller’s list only', async () => {
    await seed(user, 4);
    await seed(other, 1);
    const response = await server().request('DELETE', '/v1/notifications', as(user));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ changed: 4, unread_count: 0 });
    expect(await list()).toEqual({ notifications: [], unread_count: 0 });
    expect((await list(other)).notifications).toHaveLength(1);
  });

  it(`keeps at most ${STORED_NOTIFICATIONS_MAX} per account, dropping the oldest`, async () => {
    await seed(user, STORED_NOTIFICATIONS_MAX);
    await seed(other, 3);
    await seed(user, 5, STORED_NOTIFICATIONS_MAX);
    const answer = await list();
    expect(answer.notifications).toHaveLength(STORED_NOTIFICATIONS_MAX);
    expect(answer.unread_count).toBe(STORED_NOTIFICATIONS_MAX);
    expect(answer.notifications[0]!.title).toBe(`#${STORED_NOTIFICATIONS_MAX + 4}`);
    expect(answer.notifications.at(-1)!.title).toBe('#5');
    const stored = await server().db.query<{ count: string | number }>(
      'SELECT count(*) AS count FROM notifications WHERE account_id = $1',
      [user.session.account_id],
    );
    expect(Number(stored.rows[0]?.count)).toBe(STORED_NOTIFICATIONS_MAX);
    // The cap is per account: the other account's three are untouched.
    expect((await list(other)).notifications).toHaveLength(3);

    // One insert of more than the cap keeps the newest of it.
    await seed(other, STORED_NOTIFICATIONS_MAX + 10, 10);
    const theirs = await list(other);
    expect(theirs.notifications).toHaveLength(STORED_NOTIFICATIONS_MAX);
    expect(theirs.notifications.at(-1)!.title).toBe('#20');
  });
});

function notification(signedUp: SignedUp, index: number, createdAt: Date): NewNotification {
  return {
    accountId: signedUp.session.account_id,
    type: 'order',
    title: `#${index}`,
    message: 'Buy 0.5 BTC at 67,250.00 USD',
    severity: 'info',
    actionUrl: '/trade?pair=BTC/USD',
    metadata: { tradingPair: 'BTC_USD', orderId: crypto.randomUUID(), amount: '0.5', price: '67250.00' },
    createdAt,
  };
}
