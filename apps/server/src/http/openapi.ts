import { errorEnvelopeSchema } from '@platform/contracts';

/** The error envelope under each status a route can fail with, so that /docs lists the failures. */
export function errorResponses<const Status extends number>(
  ...statuses: Status[]
): Record<Status, typeof errorEnvelopeSchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorEnvelopeSchema])) as Record<
    Status,
    typeof errorEnvelopeSchema
  >;
}

/** The OpenAPI security requirement of routes behind `authenticate`. */
export const bearerAuth = [{ bearerAuth: [] }];
