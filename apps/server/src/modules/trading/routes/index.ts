import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.ts';
import type { TradingDeps } from '../service.ts';
import { accountBalanceRoute } from './account-balance.ts';
import { cancelOrderRoute } from './cancel-order.ts';
import { getOrderRoute } from './get-order.ts';
import { getTradeRoute } from './get-trade.ts';
import { listAccountTradesRoute } from './list-account-trades.ts';
import { listOrdersRoute } from './list-orders.ts';
import { marketTradesRoute } from './market-trades.ts';
import { modifyOrderRoute } from './modify-order.ts';
import { orderBookRoute } from './order-book.ts';
import { orderBookDepthRoute } from './order-book-depth.ts';
import { orderBookStatsRoute } from './order-book-stats.ts';
import { orderStatisticsRoute } from './order-statistics.ts';
import { placeOrderRoute } from './place-order.ts';
import { providerCancelOrderRoute } from './provider-cancel-order.ts';
import { providerGetOrderRoute } from './provider-get-order.ts';
import { providerOpenOrdersRoute } from './provider-open-orders.ts';
import { providerOrderHistoryRoute } from './provider-order-history.ts';
import { providerPlaceOrderRoute } from './provider-place-order.ts';
import { tradingRouteContext } from './shared.ts';
import { tradingStatisticsRoute } from './trading-statistics.ts';

/** Spec §7.2's trading calls and §7.4's payment-provider /trade/* facade over the same engine: one file per route. */
export function tradingRoutes(scope: FastifyInstance, context: AppContext, deps: TradingDeps): void {
  const routes = tradingRouteContext(scope, context, deps);
  placeOrderRoute(routes);
  getOrderRoute(routes);
  cancelOrderRoute(routes);
  modifyOrderRoute(routes);
  listOrdersRoute(routes);
  orderStatisticsRoute(routes);
  orderBookRoute(routes);
  orderBookDepthRoute(routes);
  orderBookStatsRoute(routes);
  getTradeRoute(routes);
  listAccountTradesRoute(routes);
  marketTradesRoute(routes);
  tradingStatisticsRoute(routes);
  accountBalanceRoute(routes);
  providerPlaceOrderRoute(routes);
  providerGetOrderRoute(routes);
  providerCancelOrderRoute(routes);
  providerOpenOrdersRoute(routes);
  providerOrderHistoryRoute(routes);
}
