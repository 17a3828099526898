import { PROVIDER_PREFIX } from '../../provider/routes.ts';
import { placeAndAnswer } from './place-and-answer.ts';
import { placeSchema, providerTags, type TradingRouteContext } from './shared.ts';

export function providerPlaceOrderRoute({ app, deps, signedIn }: TradingRouteContext): void {
  app.post(
    `${PROVIDER_PREFIX}/trade/order`,
    {
      ...signedIn,
      schema: {
        ...placeSchema,
        tags: providerTags,
        summary: 'Place an order (same body and rules as POST /v1/orders)',
      },
    },
    (request, reply) => placeAndAnswer(deps, request, request.body, reply),
  );
}
