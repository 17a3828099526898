import type { NotificationSeverity } from '@platform/contracts';
import { describe, expect, it, vi } from 'vitest';
import { defaultNotificationSettings } from '../settings/notification-settings.ts';
import {
  type AudioContextLike,
  alertsFor,
  type BrowserNotificationApi,
  createNotificationSound,
  requestPushPermission,
  showBrowserNotification,
} from './notification-alerts.ts';
import { makeNotification } from './notification-fixtures.ts';

/** Records what a tone asks of Web Audio. */
function fakeAudioContext(state: AudioContextState = 'running') {
  const calls = {
    frequency: [] as [number, number][],
    gain: [] as [number, number][],
    started: [] as number[],
    stopped: [] as number[],
    connectedToDestination: false,
    resumed: 0,
  };
  const destination = {} as AudioNode;
  const context = {
    currentTime: 10,
    destination,
    state,
    resume: vi.fn(async () => {
      calls.resumed += 1;
    }),
    createOscillator: () =>
      ({
        type: 'square',
        frequency: { setValueAtTime: (value: number, at: number) => calls.frequency.push([value, at]) },
        connect: () => {},
        disconnect: () => {},
        start: (at: number) => calls.started.push(at),
        stop: (at: number) => calls.stopped.push(at),
        onended: null,
      }) as unknown as OscillatorNode,
    createGain: () =>
      ({
        gain: {
          setValueAtTime: (value: number, at: number) => calls.gain.push([value, at]),
          exponentialRampToValueAtTime: () => {},
        },
        connect: (node: AudioNode) => {
          if (node === destination) calls.connectedToDestination = true;
        },
        disconnect: () => {},
      }) as unknown as GainNode,
  } satisfies AudioContextLike;
  return { context, calls };
}

describe('notification sound (spec §9)', () => {
  it.each([
    ['success', 800],
    ['info', 600],
    ['warning', 400],
    ['error', 300],
  ] as [NotificationSeverity, number][])('plays %s at %i Hz for 0.3 s at gain 0.1', (severity, frequencyHz) => {
    const { context, calls } = fakeAudioContext();
    createNotificationSound(() => context).play(severity);
    expect(calls.frequency).toEqual([[frequencyHz, 10]]);
    expect(calls.gain[0]).toEqual([0.1, 10]);
    expect(calls.started).toEqual([10]);
    expect(calls.stopped[0]).toBeCloseTo(10.3);
    expect(calls.connectedToDestination).toBe(true);
  });

  it('makes one audio context for every tone, and resumes it when the page has not been touched', () => {
    const { context, calls } = fakeAudioContext('suspended');
    const create = vi.fn(() => context);
    const sound = createNotificationSound(create);
    sound.play('info');
    sound.play('error');
    expect(create).toHaveBeenCalledOnce();
    expect(calls.resumed).toBe(2);
    expect(calls.frequency.map(([hz]) => hz)).toEqual([600, 300]);
  });

  it('only warns when Web Audio fails (spec §8)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const sound = createNotificationSound(() => {
      throw new Error('Web Audio is not available');
    });
    expect(() => sound.play('success')).not.toThrow();
    expect(warn).toHaveBeenCalledWith('Could not play the notification sound', expect.any(Error));
  });
});

describe('which alerts a new notification gets (spec §3.8 settings)', () => {
  const allOn = { ...defaultNotificationSettings, soundEnabled: true, pushNotifications: true };

  it('follows the switch of its type for toast, sound and push', () => {
    expect(alertsFor('order', allOn)).toEqual({ toast: true, sound: true, push: true });
    expect(alertsFor('trade', { ...allOn, tradeAlerts: false })).toEqual({ toast: false, sound: false, push: false });
    expect(alertsFor('price_alert', { ...allOn, priceAlerts: false }).sound).toBe(false);
    expect(alertsFor('security', { ...allOn, securityAlerts: false }).push).toBe(false);
    expect(alertsFor('system', { ...allOn, systemUpdates: false }).toast).toBe(false);
  });

  it('makes sound and push only when those are on', () => {
    expect(alertsFor('order', defaultNotificationSettings)).toEqual({ toast: true, sound: false, push: false });
  });

  it('does not toast an order placed or cancelled a second time, but does a fill or a rejection', () => {
    // The order form and the orders tab already confirm what the trader just did.
    expect(alertsFor('order', allOn, 'info')).toEqual({ toast: false, sound: true, push: true });
    expect(alertsFor('order', allOn, 'warning').toast).toBe(false);
    expect(alertsFor('order', allOn, 'success').toast).toBe(true);
    expect(alertsFor('order', allOn, 'error').toast).toBe(true);
  });

  it('always tells of money moving in or out', () => {
    const allOff = {
      ...allOn,
      tradeAlerts: false,
      priceAlerts: false,
      securityAlerts: false,
      systemUpdates: false,
    };
    expect(alertsFor('deposit', allOff)).toEqual({ toast: true, sound: true, push: true });
    expect(alertsFor('withdrawal', allOff).toast).toBe(true);
  });
});

describe('browser notifications', () => {
  function fakeNotificationApi(permission: NotificationPermission) {
    const shown: { title: string; options?: NotificationOptions }[] = [];
    const Api = class {
      static permission = permission;
      static requestPermission = vi.fn(async () => 'granted' as NotificationPermission);
      constructor(title: string, options?: NotificationOptions) {
        shown.push(options ? { title, options } : { title });
      }
    };
    return { api: Api as unknown as BrowserNotificationApi, shown, Api };
  }

  it('shows one when permission is granted, with the message preview', () => {
    const { api, shown } = fakeNotificationApi('granted');
    const item = makeNotification({ title: 'Order filled', message: 'm'.repeat(120) });
    showBrowserNotification(item, api);
    expect(shown).toEqual([{ title: 'Order filled', options: { body: `${'m'.repeat(100)}…`, tag: item.id } }]);
  });

  it('shows none without permission or support', () => {
    const { api, shown } = fakeNotificationApi('denied');
    showBrowserNotification(makeNotification(), api);
    showBrowserNotification(makeNotification(), null);
    expect(shown).toEqual([]);
  });

  it('asks for permission only when the browser has not been asked', async () => {
    const asked = fakeNotificationApi('default');
    expect(await requestPushPermission(asked.api)).toBe('granted');
    expect(asked.Api.requestPermission).toHaveBeenCalledOnce();
    const refused = fakeNotificationApi('denied');
    expect(await requestPushPermission(refused.api)).toBe('denied');
    expect(refused.Api.requestPermission).not.toHaveBeenCalled();
    expect(await requestPushPermission(null)).toBe('unsupported');
  });
});
