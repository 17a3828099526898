import {
  executeQuickTradeRequestSchema,
  executeQuickTradeResponseSchema,
  QUICK_TRADE_EXECUTED_MESSAGE,
} from '@platform/contracts';
import type { AppContext } from '../../../context.ts';
import type { TypedApp } from '../../../http/typed-app.ts';
import { unwrap } from '../../../lib/errors.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../../auth/index.ts';
import type { ConversionDeps } from '../deps.ts';
import { executeQuickTrade } from '../service.ts';
import { idempotencyHeaders, tags } from './shared.ts';

/** POST /api/v1/trade/execute: a quick trade at the current price; 201 new, 200 a retry's first result. */
export function quickTradeRoute(app: TypedApp, context: AppContext, deps: ConversionDeps): void {
  app.post(
    '/api/v1/trade/execute',
    {
      onRequest: authenticate(context),
      schema: {
        tags,
        summary: 'A quick trade: converts sell_amount at the current price, refused below target_amount',
        security: bearerAuth,
        body: executeQuickTradeRequestSchema,
        headers: idempotencyHeaders,
        response: {
          200: executeQuickTradeResponseSchema,
          201: executeQuickTradeResponseSchema,
          ...errorResponses(400, 401, 409, 422, 503),
        },
      },
    },
    async (request, reply) => {
      const accountId = currentAccount(request).id;
      const result = unwrap(await executeQuickTrade(deps, accountId, request.body, request.headers['idempotency-key']));
      return reply
        .code(result.created ? 201 : 200)
        .send({ message: QUICK_TRADE_EXECUTED_MESSAGE, trade: result.trade });
    },
  );
}
