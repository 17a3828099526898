import type { PlaceOrderRequest } from '@platform/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { unwrap } from '../../../lib/errors.ts';
import { currentAccount } from '../../auth/index.ts';
import { placeOrder, type TradingDeps } from '../service.ts';

/** 201 with a new order, 200 with the first one when its client_order_id was used before. */
export async function placeAndAnswer(
  deps: TradingDeps,
  request: FastifyRequest,
  body: PlaceOrderRequest,
  reply: FastifyReply,
) {
  const result = unwrap(await placeOrder(deps, currentAccount(request).id, body));
  return reply.code(result.created ? 201 : 200).send(result.order);
}
