import crypto from 'node:crypto';
import type { LanguageCode } from '@platform/contracts';
import type { Mailer } from '../../adapters/mailer/mailer.ts';
import type { Database } from '../../db/database.ts';
import { composeMail, mailTexts } from '../../i18n/mail-texts/index.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { selectAccount } from './queries.ts';
import { WALLET_EMAIL_DOMAIN } from './service.ts';

/** A day: long enough to find the mail the next morning, short enough that an old inbox leak is harmless. */
const VERIFICATION_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
/** 256 bits: unguessable, so the link alone is the proof. */
const VERIFICATION_TOKEN_BYTES = 32;

export type VerifyEmailResult = { email_verified: boolean; sent: boolean };
export type EmailVerificationDeps = { db: Database; mailer: Mailer; publicUrl: string };

const sha256 = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/** Mails a single-use link that verifies the account's current email address. */
export async function sendVerificationMail(
  deps: EmailVerificationDeps,
  accountId: string,
  now: Date,
): Promise<Result<VerifyEmailResult>> {
  const account = await selectAccount(deps.db, 'id', accountId);
  if (!account) return fail('ACCOUNT_NOT_FOUND');
  if (account.email_verified_at) return fail('EMAIL_ALREADY_VERIFIED');
  if (account.email.endsWith(`@${WALLET_EMAIL_DOMAIN}`)) {
    return fail('VALIDATION_ERROR', { message: 'This account has no email address to verify' });
  }
  const token = crypto.randomBytes(VERIFICATION_TOKEN_BYTES).toString('base64url');
  await deps.db.query(
    `INSERT INTO email_verification_tokens (token_hash, account_id, email, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [sha256(token), accountId, account.email, now, new Date(now.getTime() + VERIFICATION_TOKEN_TTL_MS)],
  );
  await deps.mailer.send(verificationMail(account, `${deps.publicUrl}/settings?verify=${token}`));
  return ok({ email_verified: false, sent: true });
}

/** In the account's language (English when it chose none). */
function verificationMail(account: { email: string; first_name: string; language: LanguageCode | null }, link: string) {
  return composeMail(
    account.email,
    mailTexts(account.language),
    'verifySubject',
    ['greeting', 'verifyIntro', { link, label: 'verifyAction' }, 'verifyValidity'],
    { firstName: account.first_name },
  );
}

/** Uses up the token and marks the email verified, both or neither. */
export async function confirmEmail(
  db: Database,
  accountId: string,
  token: string,
  now: Date,
): Promise<Result<VerifyEmailResult>> {
  const account = await selectAccount(db, 'id', accountId);
  if (!account) return fail('ACCOUNT_NOT_FOUND');
  if (account.email_verified_at) return fail('EMAIL_ALREADY_VERIFIED');
  return db.transaction(async (tx) => {
    const used = await tx.query<{ email: string }>(
      `UPDATE email_verification_tokens SET used_at = $3
       WHERE token_hash = $1 AND account_id = $2 AND used_at IS NULL AND expires_at > $3
       RETURNING email`,
      [sha256(token), accountId, now],
    );
    const email = used.rows[0]?.email;
    if (email === undefined) return fail('VERIFICATION_TOKEN_INVALID');
    // The link proves the address it was sent to; after an email change it verifies nothing.
    const verified = await tx.query(
      'UPDATE accounts SET email_verified_at = $3, updated_at = $3 WHERE id = $1 AND email = $2',
      [accountId, email, now],
    );
    if (verified.rowCount === 0) return fail('VERIFICATION_TOKEN_INVALID');
    return ok({ email_verified: true, sent: false });
  });
}
