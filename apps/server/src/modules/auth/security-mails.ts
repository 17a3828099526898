import type { Mail } from '../../adapters/mailer/mailer.ts';

/** The mails of account security: texts in one place, HTML escaped. */

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function passwordResetMail(to: string, firstName: string, link: string, ttlMs: number): Mail {
  const minutes = Math.round(ttlMs / 60_000);
  const text =
    `Hello ${firstName},\n\nSomeone asked to reset the password of your Meridian account. To choose a new password, open this link:\n${link}\n\n` +
    `The link works once and for ${minutes} minutes. Resetting the password signs you out on every device.\n` +
    `If you did not ask for this, ignore this mail: your password stays as it is.\n`;
  const html =
    `<p>Hello ${escapeHtml(firstName)},</p><p>Someone asked to reset the password of your Meridian account.</p>` +
    `<p><a href="${escapeHtml(link)}">Choose a new password</a></p>` +
    `<p>The link works once and for ${minutes} minutes. Resetting the password signs you out on every device.</p>` +
    `<p>If you did not ask for this, ignore this mail: your password stays as it is.</p>`;
  return { to, subject: 'Reset your password', text, html };
}

export function passwordChangedMail(to: string, at: Date, publicUrl: string): Mail {
  const when = at.toISOString().replace('T', ' ').slice(0, 16);
  const text =
    `The password of your Meridian account was changed on ${when} UTC; every session signed in before the change was signed out.\n\n` +
    `If this was not you, reset your password at once from the sign-in window (Forgot password?) at ${publicUrl} and contact support.\n`;
  const html =
    `<p>The password of your Meridian account was changed on ${escapeHtml(when)} UTC; every session signed in before the change was signed out.</p>` +
    `<p>If this was not you, reset your password at once from the sign-in window (Forgot password?) at ` +
    `<a href="${escapeHtml(publicUrl)}">${escapeHtml(publicUrl)}</a> and contact support.</p>`;
  return { to, subject: 'Your password was changed', text, html };
}
