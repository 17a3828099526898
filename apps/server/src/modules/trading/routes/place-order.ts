import { placeAndAnswer } from './place-and-answer.ts';
import { placeSchema, type TradingRouteContext, tags } from './shared.ts';

export function placeOrderRoute({ app, deps, signedIn }: TradingRouteContext): void {
  app.post(
    '/v1/orders',
    {
      ...signedIn,
      schema: {
        ...placeSchema,
        tags,
        summary: 'Place an order (market, limit, stop_loss, stop_limit, take_profit, take_profit_limit, oco)',
        description:
          'Funds are held first (Insufficient balance otherwise); the answer comes once the engine result is durable. ' +
          'A repeated client_order_id returns the first order with status 200.',
      },
    },
    (request, reply) => placeAndAnswer(deps, request, request.body, reply),
  );
}
