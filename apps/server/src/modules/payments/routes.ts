import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { authenticate } from '../auth/index.ts';
import { cardRoutes } from './card.ts';
import type { DepositAddresses } from './deposit-addresses.ts';
import type { PaymentsService } from './payments.ts';
import { createDepositRoute } from './routes/create-deposit.ts';
import { createLightningPaymentRoute } from './routes/create-lightning-payment.ts';
import { createPaymentRoute } from './routes/create-payment.ts';
import { depositAddressRoute } from './routes/deposit-address.ts';
import { depositHistoryRoute } from './routes/deposit-history.ts';
import { getDepositRoute } from './routes/get-deposit.ts';
import { getLightningPaymentRoute } from './routes/get-lightning-payment.ts';
import { getPaymentRoute } from './routes/get-payment.ts';
import { getPaymentCryptoRoute } from './routes/get-payment-crypto.ts';
import { getSandboxChainDepositRoute } from './routes/get-sandbox-chain-deposit.ts';
import { paymentBatchStatusRoute } from './routes/payment-batch-status.ts';
import { receiveWebhookRoute } from './routes/receive-webhook.ts';
import type { PaymentRoutesEnv } from './routes/route-env.ts';
import { selectPaymentCryptoRoute } from './routes/select-payment-crypto.ts';
import { sendSandboxChainDepositRoute } from './routes/send-sandbox-chain-deposit.ts';
import { verifyWebhookRoute } from './routes/verify-webhook.ts';

/** The payments routes, one per file under routes/; these registrars only say which go together. */

function routesEnv(context: AppContext, service: PaymentsService): PaymentRoutesEnv {
  return { context, service, signedIn: { onRequest: authenticate(context) } };
}

/** Deposit addresses, checkout deposits and the deposit history (§7.3). */
export function walletDepositRoutes(
  scope: FastifyInstance,
  context: AppContext,
  service: PaymentsService,
  addresses: DepositAddresses,
): void {
  const env = routesEnv(context, service);
  cardRoutes(scope, context, service);
  depositAddressRoute(scope, env, addresses);
  createDepositRoute(scope, env);
  getDepositRoute(scope, env);
  depositHistoryRoute(scope, env);
}

/**
 * The sandbox chain (PAYMENT_PROVIDER=sandbox only): POST stands for someone outside sending coins
 * to an address, so it takes no sign-in, like the chain itself.
 */
export function sandboxChainRoutes(scope: FastifyInstance, service: PaymentsService): void {
  sendSandboxChainDepositRoute(scope, service);
  getSandboxChainDepositRoute(scope, service);
}

/** §7.4 payment facade: payments, Lightning, webhook check. Only the owner sees a payment. */
export function facadePaymentRoutes(scope: FastifyInstance, context: AppContext, service: PaymentsService): void {
  const env = routesEnv(context, service);
  createPaymentRoute(scope, env);
  paymentBatchStatusRoute(scope, env);
  getPaymentRoute(scope, env);
  getPaymentCryptoRoute(scope, env);
  selectPaymentCryptoRoute(scope, env);
  createLightningPaymentRoute(scope, env);
  getLightningPaymentRoute(scope, env);
  verifyWebhookRoute(scope, env);
}

/** POST /v1/webhooks/{provider}, in a scope of its own (see receiveWebhookRoute). */
export async function webhookRoutes(
  scope: FastifyInstance,
  context: AppContext,
  service: PaymentsService,
): Promise<void> {
  await receiveWebhookRoute(scope, context, service);
}
