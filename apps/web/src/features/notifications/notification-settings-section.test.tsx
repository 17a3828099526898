import { NOTIFICATION_SETTINGS_STORAGE_KEY } from '@platform/contracts';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { loadNotificationSettings } from '../settings/notification-settings.ts';
import { NotificationsSection } from '../settings/notifications-section.tsx';

/** Settings > Notifications (spec §3.8), the switches the notification centre reads. */
describe('notification settings section', () => {
  it('has the seven switches of §3.8, each saved at once under the settings key', async () => {
    const user = userEvent.setup();
    render(<NotificationsSection />);
    expect(screen.getAllByRole('switch').map((element) => element.getAttribute('data-testid'))).toEqual([
      'notification-emailNotifications',
      'notification-pushNotifications',
      'notification-tradeAlerts',
      'notification-priceAlerts',
      'notification-securityAlerts',
      'notification-systemUpdates',
      'notification-soundEnabled',
    ]);
    const sound = screen.getByRole('switch', { name: 'Notification sounds' });
    expect(sound).toHaveAttribute('aria-checked', 'false');
    await user.click(sound);
    expect(sound).toHaveAttribute('aria-checked', 'true');
    expect(JSON.parse(localStorage.getItem(NOTIFICATION_SETTINGS_STORAGE_KEY) ?? '{}')).toMatchObject({
      soundEnabled: true,
    });
    await user.click(screen.getByRole('switch', { name: 'Trade alerts' }));
    expect(loadNotificationSettings()).toMatchObject({ soundEnabled: true, tradeAlerts: false });
  });

  it('asks the browser for permission when push is turned on, and says when it is blocked', async () => {
    const requestPermission = vi.fn(async () => 'denied' as NotificationPermission);
    vi.stubGlobal('Notification', { permission: 'default', requestPermission });
    const user = userEvent.setup();
    render(<NotificationsSection />);
    await user.click(screen.getByRole('switch', { name: 'Push notifications' }));
    expect(requestPermission).toHaveBeenCalledOnce();
    expect(await screen.findByTestId('notification-push-problem')).toHaveTextContent(
      'Your browser blocks notifications from this site.',
    );
    expect(loadNotificationSettings().pushNotifications).toBe(true);
  });
});
