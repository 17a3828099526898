import type { LanguageCode } from '@platform/contracts';
import type { Mail } from '../../adapters/mailer/mailer.ts';
import { composeMail, escapeHtml, mailTexts } from '../../i18n/mail-texts/index.ts';

/** The mails of account security, in the account's language (English when it chose none). */

export function passwordResetMail(
  account: { email: string; firstName: string; language: LanguageCode | null },
  link: string,
  ttlMs: number,
): Mail {
  return composeMail(
    account.email,
    mailTexts(account.language),
    'resetSubject',
    ['greeting', 'resetIntro', { link, label: 'resetAction' }, 'resetValidity', 'resetIgnore'],
    { firstName: account.firstName, minutes: Math.round(ttlMs / 60_000) },
  );
}

export function passwordChangedMail(
  account: { email: string; language: LanguageCode | null },
  at: Date,
  publicUrl: string,
): Mail {
  const when = at.toISOString().replace('T', ' ').slice(0, 16);
  const url = escapeHtml(publicUrl);
  return composeMail(
    account.email,
    mailTexts(account.language),
    'changedSubject',
    ['changedNotice', 'changedAdvice'],
    { when, publicUrl },
    { publicUrl: `<a href="${url}">${url}</a>` },
  );
}
