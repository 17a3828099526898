import { NOTIFICATION_SETTINGS_STORAGE_KEY, type Notification } from '@platform/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createMarketData, FakeWebSocketServer, replaceMarketData } from '../../features/market-data/testing.ts';
import { makeServerNotification } from '../../features/notifications/notification-fixtures.ts';
import { useAppStore } from '../../state/app-store.ts';
import { errorResponse, json, type RecordedCall, stubFetch } from '../../test/fetch-mock.ts';
import { makeAccount } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';

function signIn() {
  useAppStore.getState().setAccessToken('token');
  useAppStore.getState().setUser(makeAccount());
}

type Handler = (call: RecordedCall) => Response;

function stubNotifications(list: Notification[], extra: Record<string, Handler> = {}) {
  return stubFetch({
    'GET /v1/wallet/balances': () => json(200, { balances: [] }),
    'GET /v1/notifications': () =>
      json(200, { notifications: list, unread_count: list.filter((item) => !item.isRead).length }),
    ...extra,
  });
}

const ago = (ms: number) => Date.now() - ms;

/** The page's screens load lazily, which can be slow on a busy machine: the bell is waited for. */
const SHELL_TIMEOUT = { timeout: 10_000 };

async function renderSignedIn(path = '/') {
  signIn();
  const rendered = renderApp(path);
  await screen.findByTestId('notifications-bell', {}, SHELL_TIMEOUT);
  return rendered;
}

describe('the bell (spec §2.3, §4)', { timeout: 30_000 }, () => {
  it('counts the unread ones and lists them newest first with preview and relative time', async () => {
    const older = makeServerNotification({
      title: 'Order filled',
      message: `Bought 0.5 BTC ${'y'.repeat(120)}`,
      severity: 'success',
      timestamp: ago(2 * 60 * 60_000),
    });
    const newer = makeServerNotification({ title: 'Order placed', timestamp: ago(5_000) });
    const read = makeServerNotification({ title: 'Deposit confirmed', isRead: true, timestamp: ago(3 * 86_400_000) });
    stubNotifications([older, read, newer]);
    const { user } = await renderSignedIn();

    expect(await screen.findByTestId('notifications-badge', {}, SHELL_TIMEOUT)).toHaveTextContent('2');
    expect(screen.getByTestId('notifications-bell')).toHaveAccessibleName('Notifications, 2 unread');
    await user.click(screen.getByTestId('notifications-bell'));
    const panel = screen.getByTestId('notifications-panel');
    const items = within(panel).getAllByTestId('notification-item');
    expect(items.map((item) => item.dataset.id)).toEqual([newer.id, older.id, read.id]);
    expect(items.map((item) => item.dataset.read)).toEqual(['false', 'false', 'true']);
    expect(items[0]).toHaveTextContent('Just now');
    expect(items[1]).toHaveTextContent('2h ago');
    expect(items[2]).toHaveTextContent('3d ago');
    const preview = within(items[1] as HTMLElement).getByText(/^Bought 0.5 BTC/);
    expect(preview.textContent).toHaveLength(101);
    expect(preview.textContent?.endsWith('…')).toBe(true);
  });

  it("writes a notification with a text key in the reader's language and an old one in its stored words", async () => {
    const keyed = makeServerNotification({
      title: 'Stored English title',
      message: 'Stored English message',
      textKey: 'depositConfirmed',
      params: { amount: '1250.50000000', currency: 'USDT' },
      timestamp: ago(1_000),
    });
    const old = makeServerNotification({ title: 'Order placed', message: 'Buy 0.5 BTC', timestamp: ago(2_000) });
    stubNotifications([keyed, old]);
    const { user } = await renderSignedIn();
    await screen.findByTestId('notifications-badge', {}, SHELL_TIMEOUT);
    await user.click(screen.getByTestId('notifications-bell'));
    const [first, second] = within(screen.getByTestId('notifications-panel')).getAllByTestId('notification-item');
    expect(first).toHaveTextContent('Deposit confirmed');
    expect(first).toHaveTextContent('Your deposit of 1,250.50 USDT is confirmed and available');
    expect(first).not.toHaveTextContent('Stored English');
    expect(second).toHaveTextContent('Order placed');
    expect(second).toHaveTextContent('Buy 0.5 BTC');
    expect(screen.getByTestId(`notification-delete-${keyed.id}`)).toHaveAccessibleName(/Deposit confirmed/);
  });

  it("shows '99+' above 99 unread", async () => {
    stubNotifications(Array.from({ length: 100 }, (_, index) => makeServerNotification({ timestamp: ago(index) })));
    await renderSignedIn();
    expect(await screen.findByTestId('notifications-badge', {}, SHELL_TIMEOUT)).toHaveTextContent('99+');
  });

  it('marks an item read on click and goes to its action URL', async () => {
    const item = makeServerNotification({ title: 'Order filled', actionUrl: '/markets' });
    const { calls } = stubNotifications([item], {
      [`POST /v1/notifications/${item.id}/read`]: () => json(200, { ...item, isRead: true }),
    });
    const { user, router } = await renderSignedIn();
    await screen.findByTestId('notifications-badge', {}, SHELL_TIMEOUT);
    await user.click(screen.getByTestId('notifications-bell'));
    await user.click(screen.getByText('Order filled'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/markets'));
    expect(calls.some((call) => call.method === 'POST' && call.path === `/v1/notifications/${item.id}/read`)).toBe(
      true,
    );
    expect(screen.queryByTestId('notifications-panel')).not.toBeInTheDocument();
    expect(screen.queryByTestId('notifications-badge')).not.toBeInTheDocument();
  });

  it('marks an item without action URL read and stays', async () => {
    const item = makeServerNotification({ title: 'Order placed' });
    stubNotifications([item], {
      [`POST /v1/notifications/${item.id}/read`]: () => json(200, { ...item, isRead: true }),
    });
    const { user, router } = await renderSignedIn();
    await screen.findByTestId('notifications-badge', {}, SHELL_TIMEOUT);
    await user.click(screen.getByTestId('notifications-bell'));
    await user.click(screen.getByText('Order placed'));
    expect(screen.getByTestId('notification-item')).toHaveAttribute('data-read', 'true');
    expect(router.state.location.pathname).toBe('/');
  });

  it('deletes one, marks all read and clears all, on the server too', async () => {
    const first = makeServerNotification({ title: 'First', timestamp: ago(1_000) });
    const second = makeServerNotification({ title: 'Second', timestamp: ago(2_000) });
    const third = makeServerNotification({ title: 'Third', timestamp: ago(3_000) });
    const { calls } = stubNotifications([first, second, third], {
      [`DELETE /v1/notifications/${second.id}`]: () => new Response(null, { status: 204 }),
      'POST /v1/notifications/read-all': () => json(200, { changed: 2, unread_count: 0 }),
      'DELETE /v1/notifications': () => json(200, { changed: 2, unread_count: 0 }),
    });
    const { user } = await renderSignedIn();
    expect(await screen.findByTestId('notifications-badge', {}, SHELL_TIMEOUT)).toHaveTextContent('3');
    await user.click(screen.getByTestId('notifications-bell'));

    await user.click(screen.getByTestId(`notification-delete-${second.id}`));
    expect(screen.getAllByTestId('notification-item').map((item) => item.dataset.id)).toEqual([first.id, third.id]);
    expect(screen.getByTestId(`notification-delete-${third.id}`)).toHaveFocus();

    await user.click(screen.getByTestId('notifications-mark-all'));
    expect(screen.getAllByTestId('notification-item').map((item) => item.dataset.read)).toEqual(['true', 'true']);
    expect(screen.getByTestId('notifications-mark-all')).toBeDisabled();

    await user.click(screen.getByTestId('notifications-clear'));
    expect(screen.getByText('No notifications yet')).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(
        expect.arrayContaining([
          `DELETE /v1/notifications/${second.id}`,
          'POST /v1/notifications/read-all',
          'DELETE /v1/notifications',
        ]),
      ),
    );
  });

  it('undoes a delete the server refused and says so', async () => {
    const item = makeServerNotification({ title: 'Order placed' });
    stubNotifications([item], {
      [`DELETE /v1/notifications/${item.id}`]: () => errorResponse(500, 'INTERNAL', 'Something broke'),
    });
    const { user } = await renderSignedIn();
    await screen.findByTestId('notifications-badge', {}, SHELL_TIMEOUT);
    await user.click(screen.getByTestId('notifications-bell'));
    await user.click(screen.getByTestId(`notification-delete-${item.id}`));
    expect(await screen.findByText('Something broke')).toBeInTheDocument();
    expect(screen.getByTestId('notification-item')).toHaveAttribute('data-id', item.id);
  });

  it('welcomes an account whose list is empty', async () => {
    stubNotifications([]);
    const { user } = await renderSignedIn();
    expect(await screen.findByTestId('notifications-badge', {}, SHELL_TIMEOUT)).toHaveTextContent('1');
    await user.click(screen.getByTestId('notifications-bell'));
    expect(screen.getByText('Welcome to Meridian')).toBeInTheDocument();
  });

  it("says 'No notifications yet' when there are none and the server cannot give the list", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    stubFetch({ 'GET /v1/wallet/balances': () => json(200, { balances: [] }) });
    const { user } = await renderSignedIn();
    await user.click(screen.getByTestId('notifications-bell'));
    expect(await screen.findByText('Offline: showing the copy on this device')).toBeInTheDocument();
    expect(screen.getByText('No notifications yet')).toBeInTheDocument();
    expect(screen.queryByTestId('notifications-badge')).not.toBeInTheDocument();
  });

  it('adds a live notification from the socket, with a toast and the tone of its severity', async () => {
    const sockets = new FakeWebSocketServer();
    replaceMarketData(createMarketData({ createSocket: sockets.create, url: () => 'ws://test/ws' }));
    const tones: number[] = [];
    vi.stubGlobal(
      'AudioContext',
      class {
        currentTime = 0;
        destination = {};
        state = 'running';
        resume = async () => {};
        createOscillator = () => ({
          frequency: { setValueAtTime: (hz: number) => tones.push(hz) },
          connect: () => {},
          start: () => {},
          stop: () => {},
        });
        createGain = () => ({
          gain: { setValueAtTime: () => {}, exponentialRampToValueAtTime: () => {} },
          connect: () => {},
        });
      },
    );
    localStorage.setItem(NOTIFICATION_SETTINGS_STORAGE_KEY, JSON.stringify({ soundEnabled: true }));
    const old = makeServerNotification({ title: 'Order placed', isRead: true, timestamp: ago(60_000) });
    stubNotifications([old]);
    const { user } = await renderSignedIn();
    // The socket opens in an effect, after the first paint.
    const socket = await waitFor(() => sockets.latest);
    act(() => socket.acceptOpen());
    expect(socket.sentOfType('subscribe')).toContainEqual({ type: 'subscribe', channel: 'notifications' });

    const filled = makeServerNotification({
      title: 'Order filled',
      message: 'Bought 0.5 BTC',
      severity: 'success',
      timestamp: Date.now(),
    });
    act(() => {
      socket.receive({ type: 'subscribed', channel: 'notifications', seq: 0 });
      socket.receive({ type: 'notification_update', channel: 'notifications', seq: 1, payload: filled });
    });

    expect(await screen.findByTestId('notification-toast')).toHaveTextContent('Order filledBought 0.5 BTC');
    expect(screen.getByTestId('notifications-badge')).toHaveTextContent('1');
    expect(tones).toEqual([800]);
    await user.click(screen.getByTestId('notifications-bell'));
    expect(screen.getAllByTestId('notification-item').map((item) => item.dataset.id)).toEqual([filled.id, old.id]);
  });

  it('plays no tone and shows no toast when the type’s alerts are off, but keeps the notification', async () => {
    const sockets = new FakeWebSocketServer();
    replaceMarketData(createMarketData({ createSocket: sockets.create, url: () => 'ws://test/ws' }));
    const AudioContextSpy = vi.fn();
    vi.stubGlobal('AudioContext', AudioContextSpy);
    localStorage.setItem(NOTIFICATION_SETTINGS_STORAGE_KEY, JSON.stringify({ soundEnabled: true, tradeAlerts: false }));
    stubNotifications([makeServerNotification({ isRead: true })]);
    await renderSignedIn();
    const socket = await waitFor(() => sockets.latest);
    act(() => socket.acceptOpen());
    const placed = makeServerNotification({ type: 'order', title: 'Order placed' });
    act(() => socket.receive({ type: 'notification_update', channel: 'notifications', seq: 1, payload: placed }));
    expect(await screen.findByTestId('notifications-badge')).toHaveTextContent('1');
    expect(screen.queryByTestId('notification-toast')).not.toBeInTheDocument();
    expect(AudioContextSpy).not.toHaveBeenCalled();
  });
});
