import { NOTIFICATION_SOUND, type NotificationSeverity, type NotificationType } from '@platform/contracts';
import type { NotificationSettingKey, NotificationSettings } from '../settings/notification-settings.ts';
import { noticeText } from './notice-text.ts';
import { previewText, type StoredNotification } from './notification-model.ts';

/**
 * What a new live notification does besides joining the list (spec §3.8 settings, §9 sound):
 * a toast, a tone, a browser notification. The per-type switches decide these, never whether the
 * notification is kept. Spec §8: a sound or a browser notification that fails only logs a warning.
 */

/** The switch of each type. Deposits and withdrawals move the user's money: no switch hides them. */
export const alertSettingByType: Record<NotificationType, NotificationSettingKey | null> = {
  trade: 'tradeAlerts',
  order: 'tradeAlerts',
  price_alert: 'priceAlerts',
  security: 'securityAlerts',
  system: 'systemUpdates',
  deposit: null,
  withdrawal: null,
};

export interface NotificationAlerts {
  toast: boolean;
  sound: boolean;
  push: boolean;
}

/**
 * An order placed (info) or cancelled (warning) is what the trader just did: the order form and the
 * orders tab already confirm it ('Order placed', 'Order cancelled'), so a second toast would only
 * repeat it. Fills and rejections come later, on their own, and do toast.
 */
function confirmedByTheAction(type: NotificationType, severity: NotificationSeverity): boolean {
  return type === 'order' && (severity === 'info' || severity === 'warning');
}

export function alertsFor(
  type: NotificationType,
  settings: NotificationSettings,
  severity: NotificationSeverity = 'success',
): NotificationAlerts {
  const setting = alertSettingByType[type];
  const wanted = setting === null || settings[setting];
  return {
    toast: wanted && !confirmedByTheAction(type, severity),
    sound: wanted && settings.soundEnabled,
    push: wanted && settings.pushNotifications,
  };
}

// ---------------------------------------------------------------------------------------------
// Sound (Web Audio)
// ---------------------------------------------------------------------------------------------

export interface Tone {
  frequencyHz: number;
  durationSeconds: number;
  gain: number;
}

/** Spec §9: success 800 Hz, info 600, warning 400, error 300; 0.3 s; gain 0.1. */
export function toneFor(severity: NotificationSeverity): Tone {
  return {
    frequencyHz: NOTIFICATION_SOUND.frequencyHzBySeverity[severity],
    durationSeconds: NOTIFICATION_SOUND.durationSeconds,
    gain: NOTIFICATION_SOUND.gain,
  };
}

/** The part of AudioContext a tone needs (tests pass a fake). */
export interface AudioContextLike {
  readonly currentTime: number;
  readonly destination: AudioNode;
  readonly state: AudioContextState;
  resume(): Promise<void>;
  createOscillator(): OscillatorNode;
  createGain(): GainNode;
}

/** Where the tone fades out, so that it ends without a click (the fade is not silence: -60 dB). */
const FADE_OUT_GAIN = 0.0001;

export function playTone(context: AudioContextLike, tone: Tone): void {
  const startSeconds = context.currentTime;
  const endSeconds = startSeconds + tone.durationSeconds;
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.type = 'sine';
  oscillator.frequency.setValueAtTime(tone.frequencyHz, startSeconds);
  gain.gain.setValueAtTime(tone.gain, startSeconds);
  gain.gain.exponentialRampToValueAtTime(FADE_OUT_GAIN, endSeconds);
  oscillator.connect(gain);
  gain.connect(context.destination);
  oscillator.onended = () => {
    oscillator.disconnect();
    gain.disconnect();
  };
  oscillator.start(startSeconds);
  oscillator.stop(endSeconds);
}

export interface NotificationSound {
  play(severity: NotificationSeverity): void;
}

type AudioContextFactory = () => AudioContextLike;

function browserAudioContext(): AudioContextLike {
  const Constructor =
    globalThis.AudioContext ??
    (globalThis as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Constructor) throw new Error('Web Audio is not available');
  return new Constructor();
}

/** One audio context for the page, made at the first tone (browsers limit how many may exist). */
export function createNotificationSound(createContext: AudioContextFactory = browserAudioContext): NotificationSound {
  let context: AudioContextLike | null = null;
  return {
    play(severity) {
      try {
        context ??= createContext();
        // A page the user has not touched yet starts its audio suspended; resuming may be refused.
        if (context.state === 'suspended') {
          context.resume().catch((error: unknown) => console.warn('Could not play the notification sound', error));
        }
        playTone(context, toneFor(severity));
      } catch (error) {
        console.warn('Could not play the notification sound', error);
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Browser notifications
// ---------------------------------------------------------------------------------------------

/** The part of the browser's Notification constructor used here (tests pass a fake). */
export interface BrowserNotificationApi {
  readonly permission: NotificationPermission;
  requestPermission(): Promise<NotificationPermission>;
  new (title: string, options?: NotificationOptions): unknown;
}

function browserNotificationApi(): BrowserNotificationApi | null {
  return (globalThis as unknown as { Notification?: BrowserNotificationApi }).Notification ?? null;
}

export function showBrowserNotification(
  notification: StoredNotification,
  api: BrowserNotificationApi | null = browserNotificationApi(),
): void {
  if (api?.permission !== 'granted') return;
  try {
    const { title, message } = noticeText(notification);
    new api(title, { body: previewText(message), tag: notification.id });
  } catch (error) {
    console.warn('Could not show a browser notification', error);
  }
}

export type PushPermission = NotificationPermission | 'unsupported';

export function pushPermission(api: BrowserNotificationApi | null = browserNotificationApi()): PushPermission {
  return api ? api.permission : 'unsupported';
}

/** Asks the browser once the user turns push on (it must follow a click). */
export async function requestPushPermission(
  api: BrowserNotificationApi | null = browserNotificationApi(),
): Promise<PushPermission> {
  if (!api) return 'unsupported';
  if (api.permission !== 'default') return api.permission;
  try {
    return await api.requestPermission();
  } catch (error) {
    console.warn('Could not ask for permission to show notifications', error);
    return api.permission;
  }
}
