import { z } from 'zod';
import { errorResponses } from '../../auth/index.ts';

export const tags = ['withdrawals'];
export const providerTags = ['payment-provider'];

/** Longest id accepted in a path: a UUID or a provider's batch id is far shorter. */
const MAX_ID_LENGTH = 128;
/** Ids are looked up as given; anything that is not one of the caller's is 404, never 400. */
export const idParamsSchema = z.object({ id: z.string().max(MAX_ID_LENGTH) });

/** Longest idempotency key: a UUID (36 characters) or a client's own token, with room to spare. */
const MAX_IDEMPOTENCY_KEY_LENGTH = 64;
export const idempotencyHeaders = z.object({
  'idempotency-key': z.string().max(MAX_IDEMPOTENCY_KEY_LENGTH).optional(),
});

/** Longest currency code in a path: the longest listed is a few characters; anything longer is unsupported. */
const MAX_CURRENCY_LENGTH = 20;
export const currencyParamsSchema = z.object({ currency: z.string().max(MAX_CURRENCY_LENGTH) });

/** What creating a withdrawal or a payout can answer besides success. */
export const withdrawFailures = errorResponses(400, 401, 403, 409, 422, 429, 503);
