import { type LanguageCode, REGISTRATION_RECEIVED_MESSAGE, type RegistrationResponse } from '@platform/contracts';
import type { Mailer } from '../../adapters/mailer/mailer.ts';
import type { Database } from '../../db/database.ts';
import { en as englishMails } from '../../i18n/mail-texts/en.ts';
import { composeMail, mailTexts } from '../../i18n/mail-texts/index.ts';
import { ok, type Result } from '../../lib/errors.ts';
import type { Logger } from '../../logger.ts';
import type { AttemptLimiter } from '../auth/attempt-limiter.ts';
import { hashPassword } from '../auth/passwords.ts';
import { sendVerificationMail } from './email-verification.ts';
import { selectAccount } from './queries.ts';
import { type CreateAccountInput, registerAccount } from './service.ts';

export type RegistrationDeps = {
  db: Database;
  mailer: Mailer;
  log: Logger;
  publicUrl: string;
  /** Notices to an existing owner per email: a script re-registering an address cannot flood its inbox. */
  noticeLimiter: AttemptLimiter;
};

/**
 * Email registration that does not tell which emails have accounts (docs/auth.md): a new email gets
 * its account and a verification link, a taken one gets a mail to its owner, and the caller gets the same 201 and body in
 * about the same time either way (one argon2 hash each). The mail goes out after the answer, so its
 * cost does not show in the timing.
 */
export async function registerByEmail(
  deps: RegistrationDeps,
  input: CreateAccountInput,
  now: Date,
): Promise<Result<RegistrationResponse>> {
  const received = ok({ email: input.email, message: REGISTRATION_RECEIVED_MESSAGE });
  const created = await registerAccount(deps.db, input, now);
  if (created.ok) {
    // Either way the address gets one mail: a new owner the link that verifies it.
    void sendVerificationMail(deps, created.value.id, now).catch((error: unknown) =>
      deps.log.error({ err: error }, 'verification mail not sent'),
    );
    return received;
  }
  if (created.code !== 'EMAIL_TAKEN') return created;
  // registerAccount answered before hashing: spend the hash a creation costs.
  await hashPassword(input.password);
  void notifyOwner(deps, input.email, input.language).catch((error: unknown) =>
    deps.log.error({ err: error }, 'registration notice not sent'),
  );
  return received;
}

/**
 * The owner reads the notice in the account's language; an account that chose none, in the language
 * the registration was sent in (the one the person at the screen reads), else English.
 */
async function notifyOwner(deps: RegistrationDeps, email: string, sentIn: LanguageCode | undefined): Promise<void> {
  const key = `registration-notice:${email}`;
  if (deps.noticeLimiter.retryAfterSeconds(key) > 0) return;
  deps.noticeLimiter.recordFailure(key);
  const owner = await selectAccount(deps.db, 'email', email);
  if (!owner) return;
  const texts = mailTexts(owner.language ?? sentIn);
  const blocks = ['greeting', 'existingAttempt', 'existingSignIn', 'existingIgnore'] as const;
  const values = { firstName: owner.first_name, publicUrl: deps.publicUrl };
  await deps.mailer.send(composeMail(email, texts, 'existingSubject', blocks, values));
}

export const EXISTING_ACCOUNT_SUBJECT = englishMails.existingSubject;
