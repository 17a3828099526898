import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../context.ts';
import { AppError } from '../../../lib/errors.ts';
import { authenticate } from '../../auth/index.ts';
import type { PerpCandles } from '../candles.ts';
import type { FuturesCore } from '../exchange.ts';
import type { FuturesExchange, FuturesUses } from '../index.ts';
import type { FuturesMarketSpec } from '../markets.ts';

const withZod = (scope: FastifyInstance) => scope.withTypeProvider<ZodTypeProvider>();
export type FuturesApp = ReturnType<typeof withZod>;

export interface FuturesRouteDeps {
  exchange: FuturesExchange;
  core: FuturesCore;
  uses: FuturesUses;
  /** The perpetuals' candle reads (candles.ts), kept until a trade in their market commits. */
  candles: PerpCandles;
}

/** What every futures route file receives. */
export interface FuturesRouteContext extends FuturesRouteDeps {
  app: FuturesApp;
  context: AppContext;
  signedIn: { onRequest: ReturnType<typeof authenticate> };
}

export function futuresRouteContext(
  scope: FastifyInstance,
  context: AppContext,
  deps: FuturesRouteDeps,
): FuturesRouteContext {
  return { ...deps, app: withZod(scope), context, signedIn: { onRequest: authenticate(context) } };
}

export const tags = ['futures'];
export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export const orderIdParams = z.object({ id: z.string().min(1).max(64) });
export const marketQuery = z.object({ market: z.string().max(32).optional() });

/** The market named in the path, or FUTURES_MARKET_NOT_FOUND. */
export function marketOf(deps: FuturesRouteDeps, market: string): FuturesMarketSpec {
  const spec = deps.exchange.markets.get(market.toUpperCase());
  if (!spec) throw new AppError('FUTURES_MARKET_NOT_FOUND');
  return spec;
}
