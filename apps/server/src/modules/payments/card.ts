import { cardOptionsSchema, cardQuoteQuerySchema, cardQuoteSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { cardCharge, feePercent } from '../../adapters/payments/card-fee.ts';
import type { CardSupport, PaymentProvider } from '../../adapters/payments/types.ts';
import type { AppContext } from '../../context.ts';
import { failWithText, ok, type Result, unwrap } from '../../lib/errors.ts';
import { authenticate, bearerAuth, errorResponses } from '../auth/index.ts';
import { parseCurrency } from '../wallet/rules.ts';
import type { PaymentsService } from './payments.ts';
import { parseCheckoutAmount } from './rules.ts';

/**
 * Buying with a card (docs/payments.md): the provider's hosted card checkout is one more way into a
 * checkout deposit (payment_method 'card'), the only one for USD, which has no chain address. These
 * routes tell the client what can be bought by card and what it costs before the payer leaves.
 */

/** The provider's card support for a currency, or CARD_NOT_AVAILABLE. */
export function cardSupportFor(provider: PaymentProvider, currency: string): Result<CardSupport> {
  const card = provider.card;
  if (card?.currencies.includes(currency)) return ok(card);
  return failWithText(
    'CARD_NOT_AVAILABLE',
    'cardNotAvailable',
    { currency },
    {
      field: 'currency',
      currencies: card?.currencies ?? [],
    },
  );
}

export function cardRoutes(scope: FastifyInstance, context: AppContext, service: PaymentsService): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const schemaBase = { tags: ['wallet'], security: bearerAuth };

  app.get(
    '/api/v1/wallet/card/options',
    {
      onRequest: authenticate(context),
      schema: {
        ...schemaBase,
        summary: 'What the payment provider sells by card, and its card fee',
        response: { 200: cardOptionsSchema, ...errorResponses(401) },
      },
    },
    async () => {
      const card = service.provider().card;
      return card
        ? { currencies: [...card.currencies], fee_percent: feePercent(card) }
        : { currencies: [], fee_percent: '0' };
    },
  );

  app.get(
    '/api/v1/wallet/card/quote',
    {
      onRequest: authenticate(context),
      schema: {
        ...schemaBase,
        summary: 'What buying an amount with a card costs: the card fee and the total charged',
        querystring: cardQuoteQuerySchema,
        response: { 200: cardQuoteSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const currency = unwrap(parseCurrency(request.query.currency));
      const card = unwrap(cardSupportFor(service.provider(), currency));
      const amount = unwrap(parseCheckoutAmount(request.query.amount, currency, 'purchase'));
      const { fee, total } = cardCharge(card, currency, amount);
      return { currency, amount, fee, fee_percent: feePercent(card), total };
    },
  );
}
