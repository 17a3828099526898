import { z } from 'zod';

/** GET /health: liveness plus the state of each dependency. */
export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  uptime_seconds: z.number().int(),
  database: z.object({ kind: z.enum(['pglite', 'postgres']), ok: z.boolean() }),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
