import { analyticsDateMs, orderSchema, type PeriodQuery, placeOrderRequestSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../context.ts';
import { AppError } from '../../../lib/errors.ts';
import { authenticate, bearerAuth, errorResponses, requireAccountOwner } from '../../auth/index.ts';
import type { TimeRange, TradingDeps } from '../service.ts';

const withZod = (scope: FastifyInstance) => scope.withTypeProvider<ZodTypeProvider>();
export type TradingApp = ReturnType<typeof withZod>;

/** What every trading route file receives from the registrar. */
export interface TradingRouteContext {
  app: TradingApp;
  deps: TradingDeps;
  /** Hooks of a call that needs a signed-in account. */
  signedIn: { onRequest: ReturnType<typeof authenticate> };
  /** Hooks of a call under /v1/accounts/:id that only that account may make. */
  owner: { onRequest: ReturnType<typeof authenticate>; preValidation: typeof requireAccountOwner };
}

export function tradingRouteContext(
  scope: FastifyInstance,
  context: AppContext,
  deps: TradingDeps,
): TradingRouteContext {
  return {
    app: withZod(scope),
    deps,
    signedIn: { onRequest: authenticate(context) },
    owner: { onRequest: authenticate(context), preValidation: requireAccountOwner },
  };
}

export const tags = ['trading'];
/** Spec §7.4: the payment provider's trade calls, served by the same engine. */
export const providerTags = ['payment-provider'];
/** A pair as the path names it: BTC_USD, BTC-USD or BTCUSD (32 characters is far above any real one). */
export const symbolParamsSchema = z.object({ symbol: z.string().min(1).max(32) });
/** Trade ids are `PAIR:sequence`; 80 characters is far above any real one. */
export const tradeIdParamsSchema = z.object({ id: z.string().min(1).max(80) });

/** Most orders one provider list call returns (a page, not a dump of the table). */
const PROVIDER_LIST_LIMIT_MAX = 500;
/** What a provider list call returns without a limit. */
const PROVIDER_LIST_LIMIT_DEFAULT = 50;
export const providerListQuery = z.object({
  symbol: z.string().max(32).optional(),
  limit: z.coerce.number().int().min(1).max(PROVIDER_LIST_LIMIT_MAX).default(PROVIDER_LIST_LIMIT_DEFAULT),
});

/** One placement, served at both paths: the main API's and the payment-provider facade's (§7.4). */
export const placeSchema = {
  body: placeOrderRequestSchema,
  response: { 200: orderSchema, 201: orderSchema, ...errorResponses(400, 401, 404, 409, 422, 503) },
  security: bearerAuth,
};

const DAY_MS = 86_400_000;

/**
 * The statistics' optional period (UTC dates, both ends included) as a time range; no period is all
 * time, as before the filters existed. `from` after `to` is a 400.
 */
export function statisticsRange(query: PeriodQuery): TimeRange {
  const fromMs = query.from === undefined ? undefined : (analyticsDateMs(query.from) ?? undefined);
  const toDayMs = query.to === undefined ? undefined : (analyticsDateMs(query.to) ?? undefined);
  if (fromMs !== undefined && toDayMs !== undefined && fromMs > toDayMs) {
    throw new AppError('VALIDATION_ERROR', {
      message: 'from must not be after to',
      details: { from: query.from, to: query.to },
    });
  }
  return { fromMs, toMs: toDayMs === undefined ? undefined : toDayMs + DAY_MS };
}
