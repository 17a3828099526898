import { describe, expect, it } from 'vitest';
import { FIXED_NOW_MS, makeNotification } from './notification-fixtures.ts';
import {
  capNewest,
  internalPath,
  mergeServerList,
  previewText,
  priceAlertDirection,
  relativeTime,
  unreadBadgeText,
  unreadCount,
  upsertNotification,
  welcomeNotification,
} from './notification-model.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NOW = FIXED_NOW_MS;

describe('relativeTime (spec §9)', () => {
  it.each([
    [0, { unit: 'justNow' }],
    [59_999, { unit: 'justNow' }],
    [MINUTE, { unit: 'minutes', count: 1 }],
    [59 * MINUTE + 59_000, { unit: 'minutes', count: 59 }],
    [HOUR, { unit: 'hours', count: 1 }],
    [23 * HOUR + 59 * MINUTE, { unit: 'hours', count: 23 }],
    [DAY, { unit: 'days', count: 1 }],
    [7 * DAY, { unit: 'days', count: 7 }],
    [7 * DAY + 23 * HOUR, { unit: 'days', count: 7 }],
  ])('%i ms ago reads %j', (elapsed, expected) => {
    expect(relativeTime(NOW, NOW - elapsed)).toEqual(expected);
  });

  it('gives a date beyond 7 days', () => {
    expect(relativeTime(NOW, NOW - 8 * DAY)).toEqual({ unit: 'date', timestamp: NOW - 8 * DAY });
  });

  it('reads a time from a clock ahead of ours as just now', () => {
    expect(relativeTime(NOW, NOW + 5 * MINUTE)).toEqual({ unit: 'justNow' });
  });
});

describe('previewText (spec §9: cut at 100 characters)', () => {
  it('keeps a message of 100 characters whole', () => {
    const message = 'a'.repeat(100);
    expect(previewText(message)).toBe(message);
  });

  it('cuts a longer one at 100 and adds an ellipsis', () => {
    const preview = previewText(`${'b'.repeat(100)}cdef`);
    expect(preview).toBe(`${'b'.repeat(100)}…`);
  });

  it('does not leave a space before the ellipsis', () => {
    expect(previewText(`${'x'.repeat(99)} tail`)).toBe(`${'x'.repeat(99)}…`);
  });

  it('counts an emoji as one character and never splits it', () => {
    const preview = previewText(`${'🚀'.repeat(101)}`);
    expect(Array.from(preview)).toHaveLength(101);
    expect(preview.endsWith('🚀…')).toBe(true);
  });
});

describe('unreadBadgeText (spec §4)', () => {
  it.each([
    [0, null],
    [1, '1'],
    [99, '99'],
    [100, '99+'],
    [250, '99+'],
  ])('%i unread shows %s', (count, text) => {
    expect(unreadBadgeText(count)).toBe(text);
  });

  it('counts the unread ones', () => {
    expect(unreadCount([makeNotification(), makeNotification({ isRead: true }), makeNotification()])).toBe(2);
  });
});

describe('priceAlertDirection (spec §4: above or below)', () => {
  it('uses the field when there is one', () => {
    expect(priceAlertDirection(makeNotification({ type: 'price_alert', direction: 'below', title: 'BTC above' }))).toBe(
      'below',
    );
  });

  it('reads it from the words otherwise', () => {
    expect(priceAlertDirection(makeNotification({ type: 'price_alert', title: 'BTC rose above 70,000' }))).toBe(
      'above',
    );
    expect(priceAlertDirection(makeNotification({ type: 'price_alert', title: 'ETH fell below 3,000' }))).toBe('below');
  });

  it('gives none when the words say nothing or both, and none for other types', () => {
    expect(priceAlertDirection(makeNotification({ type: 'price_alert', title: 'BTC alert', message: '' }))).toBeNull();
    expect(
      priceAlertDirection(makeNotification({ type: 'order', title: 'Price above', direction: 'above' })),
    ).toBeNull();
  });
});

describe('the list', () => {
  it('keeps the newest 100, newest first', () => {
    const items = Array.from({ length: 130 }, (_, index) => makeNotification({ timestamp: NOW + index }));
    const kept = capNewest(items);
    expect(kept).toHaveLength(100);
    expect(kept[0]?.timestamp).toBe(NOW + 129);
    expect(kept.at(-1)?.timestamp).toBe(NOW + 30);
  });

  it('replaces an item of the same id instead of adding it twice', () => {
    const first = makeNotification({ title: 'Order placed' });
    const list = upsertNotification([first], { ...first, isRead: true });
    expect(list).toEqual([{ ...first, isRead: true }]);
  });

  it('merges a server load: server wins, local-only and live arrivals stay, the rest goes', () => {
    const welcome = welcomeNotification(NOW - DAY, { title: 'Welcome', message: 'Hi' });
    const onServer = makeNotification({ timestamp: NOW - HOUR, isRead: false });
    const deletedElsewhere = makeNotification({ timestamp: NOW - 2 * HOUR });
    const live = makeNotification({ timestamp: NOW });
    const merged = mergeServerList(
      [live, { ...onServer, isRead: false }, deletedElsewhere, welcome],
      [{ ...onServer, isRead: true }],
      new Set([live.id]),
    );
    expect(merged.map((item) => item.id)).toEqual([live.id, onServer.id, welcome.id]);
    expect(merged[1]?.isRead).toBe(true);
  });
});

describe('internalPath', () => {
  it('follows paths of the app only', () => {
    expect(internalPath('/trade?pair=BTC/USD')).toBe('/trade?pair=BTC/USD');
    expect(internalPath('/social')).toBe('/social');
    expect(internalPath(null)).toBeNull();
    expect(internalPath('https://evil.example')).toBeNull();
    expect(internalPath('//evil.example')).toBeNull();
    expect(internalPath('javascript:alert(1)')).toBeNull();
  });
});
