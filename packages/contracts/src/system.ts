import { z } from 'zod';

/** GET /health: liveness plus the state of each dependency. */
export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  uptime_seconds: z.number().int(),
  database: z.object({ kind: z.enum(['pglite', 'postgres']), ok: z.boolean() }),
  /** Where prices come from now: a live source, or the built-in simulator (the last resort). */
  prices: z.enum(['live', 'simulator']).optional(),
  /** Each configured price source in chain order; the simulator is always last. */
  price_sources: z.array(z.object({ name: z.string(), ok: z.boolean(), last_error: z.string().nullable() })).optional(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
