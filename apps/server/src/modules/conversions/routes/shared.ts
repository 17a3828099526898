import { z } from 'zod';

export const tags = ['conversions'];

/** Longest idempotency key: a UUID (36 characters) or a client's own token, with room to spare. */
const MAX_IDEMPOTENCY_KEY_LENGTH = 64;
export const idempotencyHeaders = z.object({
  'idempotency-key': z.string().max(MAX_IDEMPOTENCY_KEY_LENGTH).optional(),
});
