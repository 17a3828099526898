import type { LoaderFunctionArgs } from 'react-router';
import { useAppStore } from '../../state/app-store.ts';
import { orderBookFeed, tradeTape } from '../market-data/index.ts';
import { resolvePairId } from './trade-route.ts';

/** How long the route's own hold on the feeds lasts: the panels hold them from their first render. */
export const WARM_HOLD_MS = 10_000;

/**
 * The /trade route's loader: starts the pair's book and trade feeds as the route resolves, before
 * the page renders, so their socket subscriptions and HTTP seeds go out at once instead of from
 * effects after the page's first paint (bench/README.md, "Trade page"). It waits for nothing.
 */
export function warmTradeFeeds({ request }: LoaderFunctionArgs): null {
  const pairParam = new URL(request.url).searchParams.get('pair');
  const pairId = resolvePairId(pairParam, useAppStore.getState().selectedTradingPair, null);
  const holds = [orderBookFeed(pairId).retain(), tradeTape(pairId).retain()];
  setTimeout(() => {
    for (const release of holds) release();
  }, WARM_HOLD_MS);
  return null;
}
