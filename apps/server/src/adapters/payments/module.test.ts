import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import { createLogger } from '../../logger.ts';
import { InProcessPubSub } from '../../realtime/pubsub.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { createPaymentProvider, listeningBaseUrl } from './module.ts';

/** Choosing the provider from the configuration, and where it is called back. */

function contextWith(environment: Record<string, string>): AppContext {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...environment });
  return {
    config,
    // The real adapters never touch the database; the sandbox is tested on a real one elsewhere.
    db: {} as Database,
    log: createLogger(config),
    secrets: { jwtSecret: 'x'.repeat(32), dataKey: crypto.randomBytes(32).toString('hex') },
    clock: () => new Date(),
    pubsub: new InProcessPubSub(),
  };
}

function configProblems(build: () => unknown): string[] {
  try {
    build();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('createPaymentProvider', () => {
  it('is the sandbox by default', () => {
    expect(createPaymentProvider(contextWith({})).name).toBe('sandbox');
  });

  it('refuses to start Triple-A without its credentials, naming every missing variable', () => {
    expect(configProblems(() => createPaymentProvider(contextWith({ PAYMENT_PROVIDER: 'triple-a' })))).toEqual([
      'TRIPLEA_CLIENT_ID: required when PAYMENT_PROVIDER=triple-a',
      'TRIPLEA_CLIENT_SECRET: required when PAYMENT_PROVIDER=triple-a',
      'TRIPLEA_MERCHANT_KEY: required when PAYMENT_PROVIDER=triple-a',
    ]);
    const partial = contextWith({ PAYMENT_PROVIDER: 'triple-a', TRIPLEA_CLIENT_ID: 'id', TRIPLEA_MERCHANT_KEY: 'key' });
    expect(configProblems(() => createPaymentProvider(partial))).toEqual([
      'TRIPLEA_CLIENT_SECRET: required when PAYMENT_PROVIDER=triple-a',
    ]);
    const complete = contextWith({
      PAYMENT_PROVIDER: 'triple-a',
      TRIPLEA_CLIENT_ID: 'id',
      TRIPLEA_CLIENT_SECRET: 'secret',
      TRIPLEA_MERCHANT_KEY: 'key',
    });
    expect(createPaymentProvider(complete).name).toBe('triple-a');
  });

  it('refuses to start NOWPayments without its credentials, naming every missing variable', () => {
    const partial = contextWith({ PAYMENT_PROVIDER: 'nowpayments', NOWPAYMENTS_API_KEY: 'key' });
    const problems = configProblems(() => createPaymentProvider(partial));
    expect(problems).toEqual([
      'NOWPAYMENTS_IPN_SECRET: required when PAYMENT_PROVIDER=nowpayments',
      'NOWPAYMENTS_EMAIL: required when PAYMENT_PROVIDER=nowpayments',
      'NOWPAYMENTS_PASSWORD: required when PAYMENT_PROVIDER=nowpayments',
    ]);
    expect(new ConfigError(problems).message).toContain('NOWPAYMENTS_IPN_SECRET');
  });
});

describe('listeningBaseUrl', () => {
  const address = (address: string, port: number, family = 'IPv4') => ({ address, port, family });

  it('keeps a configured public URL', () => {
    expect(listeningBaseUrl('https://meridian.example/', address('127.0.0.1', 3000))).toBe('https://meridian.example');
    expect(listeningBaseUrl('http://localhost:3000', address('127.0.0.1', 3000))).toBe('http://localhost:3000');
  });

  it('uses the address listened on when the configured port is 0', () => {
    expect(listeningBaseUrl('http://localhost:0', address('127.0.0.1', 41234))).toBe('http://127.0.0.1:41234');
    expect(listeningBaseUrl('http://localhost:0', address('0.0.0.0', 41234))).toBe('http://localhost:41234');
    expect(listeningBaseUrl('http://localhost:0', address('::', 41234, 'IPv6'))).toBe('http://localhost:41234');
    expect(listeningBaseUrl('http://localhost:0', address('::1', 41234, 'IPv6'))).toBe('http://[::1]:41234');
    expect(listeningBaseUrl('http://localhost:0', null)).toBe('http://localhost:0');
  });
});

describeEachDatabase(
  'payment provider module with NOWPayments configured',
  (server) => {
    it('uses NOWPayments, serves no sandbox pages, and knows the listening address', async () => {
      expect(server().services.paymentProvider.gateway.provider.name).toBe('nowpayments');
      expect((await server().request('GET', '/sandbox/checkout/SBX-1-PMT')).status).toBe(404);
      expect((await server().request('POST', '/sandbox/payouts/SBX-1-PO/fail')).status).toBe(404);
      expect(server().services.paymentProvider.gateway.callbackBaseUrl()).toBe(server().url);
      expect(server().services.paymentProvider.gateway.webhookUrl('nowpayments')).toBe(
        `${server().url}/v1/webhooks/nowpayments`,
      );
    });
  },
  {
    PRICE_FEED_ENABLED: 'false',
    RATE_LIMIT_ENABLED: 'false',
    PAYMENT_PROVIDER: 'nowpayments',
    NOWPAYMENTS_API_URL: 'http://127.0.0.1:9',
    NOWPAYMENTS_API_KEY: 'key',
    NOWPAYMENTS_IPN_SECRET: 'ipn',
    NOWPAYMENTS_EMAIL: 'ops@example.com',
    NOWPAYMENTS_PASSWORD: 'password',
  },
);
