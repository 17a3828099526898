import type { AddressInfo } from 'node:net';
import { type Amount, div, isPositive } from '@platform/money';
import { ConfigError } from '../../config.ts';
import type { AppContext, ModuleParts } from '../../context.ts';
import { canonical } from './amounts.ts';
import { PaymentGateway } from './index.ts';
import { NowPaymentsAdapter } from './nowpayments.ts';
import { SandboxProvider } from './sandbox.ts';
import { sandboxRoutes } from './sandbox-routes.ts';
import { deriveSecret } from './signatures.ts';
import { TripleAAdapter } from './triple-a.ts';
import type { PaymentProvider } from './types.ts';

/** The live USD price of a currency (the markets' feed), for the sandbox's quotes. */
export type UsdPrice = (symbol: string) => Amount | undefined;

/** What the provider's sandbox quotes from and sends payers to; both optional where no sandbox runs. */
export type ProviderLinks = { baseUrl?: () => string; usdPrice?: UsdPrice };

export type PaymentProviderModule = ModuleParts & { gateway: PaymentGateway };

/**
 * Builds the payment provider PAYMENT_PROVIDER names (docs/payment-providers.md) behind the
 * gateway the paying modules (wallet, payments, withdrawals) are given: the sandbox by default
 * (with its pages and controls), or Triple-A / NOWPayments with their credentials.
 */
export function createPaymentProviderModule(context: AppContext, usdPrice: UsdPrice): PaymentProviderModule {
  const links = { baseUrl: () => gateway.callbackBaseUrl(), usdPrice };
  const provider = createPaymentProvider(context, links);
  const gateway = new PaymentGateway(provider, context.config.publicUrl);
  const listening = (address: AddressInfo | string | null) =>
    gateway.setCallbackBaseUrl(listeningBaseUrl(context.config.publicUrl, address));
  if (!(provider instanceof SandboxProvider)) return { gateway, listening };
  // The sandbox lets anyone pay checkouts and send chain deposits: play money, by design. Say so
  // loudly where real money would be expected.
  if (context.config.env === 'production') {
    context.log.warn(
      'PAYMENT_PROVIDER is the sandbox: its pages and /sandbox/chain/deposits credit play money to anyone. Set triple-a or nowpayments for real funds.',
    );
  }
  return {
    gateway,
    listening,
    routes: (scope) => sandboxRoutes(scope, provider),
    start: async () => {
      await provider.start();
    },
    stop: () => provider.close(),
  };
}

/** The provider of the configuration; a real one without its credentials stops the start. */
export function createPaymentProvider(context: AppContext, links: ProviderLinks = {}): PaymentProvider {
  const { config } = context;
  switch (config.paymentProvider) {
    case 'sandbox':
      return new SandboxProvider({
        db: context.db,
        log: context.log,
        clock: context.clock,
        dataKey: context.secrets.dataKey,
        confirmDelayMs: config.sandboxConfirmDelayMs,
        payoutStepMs: config.sandboxPayoutStepMs,
        webhookToleranceSeconds: config.webhookToleranceSeconds,
        baseUrl: links.baseUrl ?? (() => config.publicUrl),
        rate: (orderCurrency, payCurrency) => referenceRate(links.usdPrice, orderCurrency, payCurrency),
      });
    case 'triple-a': {
      const { clientId, clientSecret, merchantKey } = config.tripleA;
      requireVariables('triple-a', {
        TRIPLEA_CLIENT_ID: clientId,
        TRIPLEA_CLIENT_SECRET: clientSecret,
        TRIPLEA_MERCHANT_KEY: merchantKey,
      });
      return new TripleAAdapter({
        apiUrl: config.tripleA.apiUrl,
        clientId: clientId!,
        clientSecret: clientSecret!,
        merchantKey: merchantKey!,
        sandbox: config.tripleA.sandbox,
        notifySecretKey: deriveSecret(context.secrets.dataKey, 'triple-a notify secret key'),
        webhookToleranceSeconds: config.webhookToleranceSeconds,
        clock: context.clock,
      });
    }
    case 'nowpayments': {
      const { apiKey, ipnSecret, email, password } = config.nowPayments;
      requireVariables('nowpayments', {
        NOWPAYMENTS_API_KEY: apiKey,
        NOWPAYMENTS_IPN_SECRET: ipnSecret,
        NOWPAYMENTS_EMAIL: email,
        NOWPAYMENTS_PASSWORD: password,
      });
      return new NowPaymentsAdapter({
        apiUrl: config.nowPayments.apiUrl,
        apiKey: apiKey!,
        ipnSecret: ipnSecret!,
        email: email!,
        password: password!,
        clock: context.clock,
      });
    }
  }
}

function requireVariables(provider: string, variables: Record<string, string | undefined>): void {
  const missing = Object.entries(variables)
    .filter(([, value]) => value === undefined || value === '')
    .map(([name]) => name);
  if (missing.length > 0) {
    throw new ConfigError(missing.map((name) => `${name}: required when PAYMENT_PROVIDER=${provider}`));
  }
}

/**
 * Where providers call back and payers are sent: PUBLIC_URL, unless its port is 0 (the test
 * harness and `PORT=0` listen on a port chosen at listen time), then the address actually
 * listened on. A wildcard address (0.0.0.0, ::) is reached as localhost.
 */
export function listeningBaseUrl(publicUrl: string, address: AddressInfo | string | null): string {
  const configured = new URL(publicUrl);
  if (configured.port !== '0' || address === null || typeof address === 'string') return publicUrl.replace(/\/$/, '');
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const host = wildcard ? 'localhost' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `${configured.protocol}//${host}:${address.port}`;
}

/** Decimals of a sandbox exchange rate: more than a quoted amount shows, so the rate's rounding never shows in it. */
const REFERENCE_RATE_SCALE = 12;

/**
 * Price of one `payCurrency` in `orderCurrency`, from the live reference prices (USD-quoted), for the
 * sandbox's quotes; null when either price is unknown (the checkout then shows the order amount).
 */
function referenceRate(usdPrice: UsdPrice | undefined, orderCurrency: string, payCurrency: string): string | null {
  const usd = (symbol: string) => (symbol === 'USD' ? { units: 1n, scale: 0 } : usdPrice?.(symbol));
  const pay = usd(payCurrency);
  const order = usd(orderCurrency);
  if (!pay || !order || !isPositive(order) || !isPositive(pay)) return null;
  return canonical(div(pay, order, REFERENCE_RATE_SCALE, 'half_even'));
}
