import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.ts';
import { accountRoute } from './account.ts';
import { cancelAllRoute } from './cancel-all.ts';
import { cancelOrderRoute } from './cancel-order.ts';
import { candlesRoute } from './candles.ts';
import { fillsRoute } from './fills.ts';
import { fundingHistoryRoute } from './funding-history.ts';
import { getOrderRoute } from './get-order.ts';
import { incomeRoute } from './income.ts';
import { insuranceFundRoute } from './insurance-fund.ts';
import { isolatedMarginRoute } from './isolated-margin.ts';
import { leverageRoute } from './leverage.ts';
import { listOrdersRoute } from './list-orders.ts';
import { marginModeRoute } from './margin-mode.ts';
import { markRoute } from './mark.ts';
import { marketRoute } from './market.ts';
import { marketListRoute } from './market-list.ts';
import { marketTradesRoute } from './market-trades.ts';
import { modifyOrderRoute } from './modify-order.ts';
import { orderBookRoute } from './orderbook.ts';
import { placeOrderRoute } from './place-order.ts';
import { positionsRoute } from './positions.ts';
import { previewOrderRoute } from './preview-order.ts';
import { settingsRoute } from './settings.ts';
import { type FuturesRouteDeps, futuresRouteContext } from './shared.ts';
import { stateCheckRoute } from './state-check.ts';
import { tiersRoute } from './tiers.ts';
import { tpslRoute } from './tpsl.ts';
import { transferRoute } from './transfer.ts';
import { transfersRoute } from './transfers.ts';

/** Every /v1/futures call: market data open to all, the rest for the signed-in account. One file per route. */
export function futuresRoutes(scope: FastifyInstance, context: AppContext, deps: FuturesRouteDeps): void {
  const routes = futuresRouteContext(scope, context, deps);
  for (const register of [
    marketListRoute,
    marketRoute,
    tiersRoute,
    orderBookRoute,
    marketTradesRoute,
    candlesRoute,
    markRoute,
    fundingHistoryRoute,
    insuranceFundRoute,
    accountRoute,
    positionsRoute,
    settingsRoute,
    leverageRoute,
    marginModeRoute,
    isolatedMarginRoute,
    tpslRoute,
    placeOrderRoute,
    previewOrderRoute,
    listOrdersRoute,
    getOrderRoute,
    modifyOrderRoute,
    cancelOrderRoute,
    cancelAllRoute,
    fillsRoute,
    transferRoute,
    transfersRoute,
    incomeRoute,
    stateCheckRoute,
  ]) {
    register(routes);
  }
}
