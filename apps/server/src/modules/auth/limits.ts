import type { RateLimitOptions } from '@fastify/rate-limit';
import type { Config } from '../../config.ts';
import { type Failure, fail } from '../../lib/errors.ts';
import type { AttemptLimit } from './attempt-limiter.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

// Per-IP limits (@fastify/rate-limit). They stop floods from one address; a guesser spreading
// over many addresses meets the per-account limits below instead.

/** Login: a person retrying typos never sends 30 a minute; a password-guessing script is slowed to a crawl. */
export const LOGIN_IP_LIMIT = { max: 30, timeWindow: MINUTE_MS };
/** Each challenge is a stored row, and a wallet user needs one per sign-in. */
export const WALLET_CHALLENGE_IP_LIMIT = { max: 30, timeWindow: MINUTE_MS };
/** Sign-ups: a household or office behind one address makes a few an hour; bots make thousands. */
export const REGISTRATION_IP_LIMIT = { max: 20, timeWindow: HOUR_MS };
/** Each open tab refreshes about once per access-token lifetime; 60 a minute leaves room for many users behind one NAT. */
export const REFRESH_IP_LIMIT = { max: 60, timeWindow: MINUTE_MS };
/** 2FA setup and removal are rare; ten a minute covers a user fumbling their authenticator app. */
export const TWO_FACTOR_IP_LIMIT = { max: 10, timeWindow: MINUTE_MS };
/** Verification mails and link clicks: a user needs a handful; more is mail bombing. */
export const VERIFY_EMAIL_IP_LIMIT = { max: 20, timeWindow: HOUR_MS };

// Per-account limits (AttemptLimiter, counted on the server clock). They hold even when per-IP
// limits are switched off, since they are what stops a distributed guesser.

/** Ten wrong passwords or codes per email in 15 minutes: generous for a person, ~1,000 guesses a day for a bot. */
export const LOGIN_FAILURES_PER_ACCOUNT: AttemptLimit = { maxFailures: 10, windowMs: 15 * MINUTE_MS };
/** Ten wrong codes in 15 minutes: against a million codes (three valid at a time) guessing takes years. */
export const TWO_FACTOR_FAILURES_PER_ACCOUNT: AttemptLimit = { maxFailures: 10, windowMs: 15 * MINUTE_MS };
/** Five verification mails an hour per account: enough to resend, too few to flood an inbox. */
export const VERIFICATION_MAILS_PER_ACCOUNT: AttemptLimit = { maxFailures: 5, windowMs: HOUR_MS };

/** The route `config` for a per-IP limit; none when RATE_LIMIT_ENABLED=false (browser tests). */
export function ipRateLimit(
  config: Pick<Config, 'rateLimitEnabled'>,
  limit: { max: number; timeWindow: number },
): { rateLimit: RateLimitOptions | false } {
  return { rateLimit: config.rateLimitEnabled ? limit : false };
}

/** A RATE_LIMITED result, with the Retry-After header the edge answers it with. */
export function rateLimited(retryAfterSeconds: number): Failure {
  return fail('RATE_LIMITED', {
    details: { retry_after_seconds: retryAfterSeconds },
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
}
