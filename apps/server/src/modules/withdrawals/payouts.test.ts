import type { Payout, ProviderBalance, Withdrawal } from '@platform/contracts';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { totpCode } from '../auth/totp.ts';
import { balance, fund } from '../trading/test-support.ts';
import type { Member } from '../wallet/test-support.ts';
import {
  ADDRESSES,
  deliverWebhook,
  enableTwoFactor,
  FakePayoutProvider,
  installFake,
  processorOf,
  sent,
  verifiedMember,
  waitForWithdrawal,
  withdraw,
} from './test-support.ts';

type PayoutAnswer = { status: number; body: Payout & { error?: { code: string; message: string; details?: unknown } } };

function payout(
  server: TestServer,
  member: Member,
  body: Record<string, unknown>,
  key?: string,
): Promise<PayoutAnswer> {
  return server.request('POST', '/api/v1/wallet/payout', {
    token: member.token,
    body,
    ...(key ? { headers: { 'idempotency-key': key } } : {}),
  }) as Promise<PayoutAnswer>;
}

const items = [
  {
    address: ADDRESSES.BTC,
    currency: 'btc',
    amount: '0.05',
    unique_external_id: 'inv-1',
    fiat_amount: 3000,
    fiat_currency: 'usd',
  },
  { address: ADDRESSES.ETH, currency: 'eth', amount: '0.5', payout_description: 'rent' },
  { address: ADDRESSES.XRP, currency: 'xrp', amount: '150', extra_id: '778899' },
];

describeEachDatabase(
  'withdrawals: mass payouts, verification, provider quotes and balances',
  (server) => {
    let fake: FakePayoutProvider;
    let payer: Member;
    let other: Member;

    beforeAll(async () => {
      fake = installFake(server());
      payer = await verifiedMember(server());
      other = await verifiedMember(server());
      await fund(server(), payer.id, 'BTC', '1');
      await fund(server(), payer.id, 'ETH', '2');
      await fund(server(), payer.id, 'XRP', '1000');
    });

    it('records a mass payout all at once, sends every item, and follows each to its end', async () => {
      const answer = await payout(server(), payer, {
        withdrawals: items,
        payout_description: 'March payouts',
        ipn_callback_url: 'https://example.com/ipn',
      });
      expect(answer.status).toBe(201);
      expect(answer.body.status).toBe('pending');
      expect(answer.body.withdrawals).toHaveLength(3);
      const [btc, eth, xrp] = answer.body.withdrawals as [Withdrawal, Withdrawal, Withdrawal];
      expect(btc).toMatchObject({
        payout_id: answer.body.id,
        currency: 'BTC',
        amount: '0.05',
        fee: '0.0001',
        unique_external_id: 'inv-1',
        fiat_amount: '3000',
        fiat_currency: 'USD',
        payout_description: 'March payouts',
        ipn_callback_url: 'https://example.com/ipn',
      });
      expect(eth).toMatchObject({ currency: 'ETH', payout_description: 'rent', fee: '0.002' });
      expect(xrp).toMatchObject({ currency: 'XRP', extra_id: '778899', fee: '0.15' });
      expect(await balance(server(), payer.id, 'XRP')).toEqual({
        currency: 'XRP',
        available: '849.85',
        locked: '150.15',
      });

      for (const item of [btc, eth, xrp]) await sent(server(), payer, item.id);
      expect(fake.payouts.get(eth.id)?.request.description).toBe('rent');
      await deliverWebhook(server(), fake.move(btc.id, 'finished'));
      await deliverWebhook(server(), fake.move(eth.id, 'failed', { error: 'network congested' }));
      const midway = await server().request<Payout>('GET', `/api/v1/wallet/payout/${answer.body.id}/status`, {
        token: payer.token,
      });
      expect(midway.body.status).toBe('pending');
      await deliverWebhook(server(), fake.move(xrp.id, 'finished'));
      const done = await server().request<Payout>('GET', `/api/v1/wallet/payout/${answer.body.id}/status`, {
        token: payer.token,
      });
      expect(done.body.status).toBe('completed');
      expect(done.body.withdrawals.map((item) => item.status)).toEqual(['completed', 'failed', 'completed']);
      expect(await balance(server(), payer.id, 'ETH')).toEqual({ currency: 'ETH', available: '2', locked: '0' });
      expect(await balance(server(), payer.id, 'XRP')).toEqual({ currency: 'XRP', available: '849.85', locked: '0' });
      const hidden = await server().request('GET', `/api/v1/wallet/payout/${answer.body.id}/status`, {
        token: other.token,
      });
      expect(hidden.status).toBe(404);
    });

    it('refuses the whole payout when one item breaks a rule or the balance cannot cover them all', async () => {
      const before = await balance(server(), payer.id, 'BTC');
      const bad = await payout(server(), payer, {
        withdrawals: [items[0], { ...items[1], address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44E' }],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ message: 'Invalid ETH address format', details: { index: 1 } });
      const tooMuch = await payout(server(), payer, {
        withdrawals: [items[0], { ...items[0], amount: '0.95' }],
      });
      expect(tooMuch.status).toBe(422);
      expect(tooMuch.body.error?.message).toBe('Insufficient balance');
      const badUrl = await payout(server(), payer, { withdrawals: [{ ...items[0], ipn_callback_url: 'ftp://x' }] });
      expect(badUrl.status).toBe(400);
      const empty = await payout(server(), payer, { withdrawals: [] });
      expect(empty.status).toBe(400);
      const notArray = await payout(server(), payer, { withdrawals: 'all of it' });
      expect(notArray.status).toBe(400);
      expect(await balance(server(), payer.id, 'BTC')).toEqual(before);
    });

    it('takes one 2FA code for the batch, and a key makes a retried payout return the first', async () => {
      const member = await verifiedMember(server());
      await fund(server(), member.id, 'BTC', '1');
      const secret = await enableTwoFactor(server(), member);
      const body = { withdrawals: [items[0], { ...items[0], amount: '0.02' }] };
      const missing = await payout(server(), member, body, 'batch-1');
      expect(missing.status).toBe(403);
      expect(missing.body.error?.code).toBe('WITHDRAWAL_TWO_FACTOR_REQUIRED');
      const code = totpCode(secret, server().clock.now);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => payout(server(), member, { ...body, two_factor_code: code }, 'batch-1')),
      );
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
      expect(answers.every((answer) => answer.status === 201 || answer.status === 200)).toBe(true);
      expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
      expect(await balance(server(), member.id, 'BTC')).toEqual({
        currency: 'BTC',
        available: '0.9298',
        locked: '0.0702',
      });
      const changed = await payout(server(), member, { withdrawals: [items[0]], two_factor_code: code }, 'batch-1');
      expect(changed.status).toBe(409);
    });

    it('verifies a payout that waits for a code (6 digits), through the provider', async () => {
      fake.needsVerification = true;
      fake.initialStatus = 'waiting';
      try {
        const answer = await withdraw(server(), payer, { currency: 'btc', amount: '0.01', address: ADDRESSES.BTC });
        const waiting = await sent(server(), payer, answer.body.id);
        expect(waiting).toMatchObject({ provider_status: 'waiting', verification_required: true });
        const batch = waiting.batch_withdrawal_id as string;
        const verify = (code: unknown, reference: unknown = batch) =>
          server().request('POST', '/api/v1/wallet/verify-payout', {
            token: payer.token,
            body: { batch_withdrawal_id: reference, verification_code: code },
          });
        for (const bad of ['12345', 'abcdef', '1234567', '']) {
          const refused = await verify(bad);
          expect(refused.status).toBe(400);
          expect(refused.body.error.code).toBe('VERIFICATION_CODE_INVALID');
        }
        const wrong = await verify('654321');
        expect(wrong.status).toBe(400);
        expect(wrong.body.error.code).toBe('VERIFICATION_CODE_INVALID');
        const unknown = await verify('123456', 'B-nothing');
        expect(unknown.status).toBe(404);
        const ok = await verify(123456);
        expect(ok.status).toBe(200);
        expect(ok.body).toMatchObject({
          success: true,
          batch_withdrawal_id: batch,
          withdrawals: [{ id: answer.body.id, provider_status: 'processing', verification_required: false }],
        });
        expect(fake.verifyCalls.at(-1)).toEqual({ batchId: batch, code: '123456' });
        const again = await verify('123456', answer.body.id);
        expect(again.status).toBe(409);
        expect(again.body.error.code).toBe('PAYOUT_NOT_VERIFIABLE');
        await deliverWebhook(server(), fake.move(answer.body.id, 'finished'));
        await waitForWithdrawal(server(), payer, answer.body.id, (item) => item.status === 'completed');
      } finally {
        fake.needsVerification = false;
        fake.initialStatus = 'creating';
      }
    });

    it("shows balances in the provider's shape: pending is what is held", async () => {
      const member = await verifiedMember(server());
      await fund(server(), member.id, 'ETH', '1.5');
      fake.createError = FakePayoutProvider.outage();
      try {
        const held = await withdraw(server(), member, { currency: 'eth', amount: '0.5', address: ADDRESSES.ETH });
        expect(held.status).toBe(201);
        const all = await server().request<ProviderBalance[]>('GET', '/v1/triple-a/wallet/balances', {
          token: member.token,
        });
        expect(all.status).toBe(200);
        expect(all.body.find((row) => row.currency === 'ETH')).toEqual({
          currency: 'ETH',
          available_balance: '0.998',
          pending_balance: '0.502',
          total_balance: '1.5',
        });
        expect(all.body.find((row) => row.currency === 'BTC')).toMatchObject({ total_balance: '0' });
        const one = await server().request('GET', '/v1/triple-a/wallet/balance/eth', { token: member.token });
        expect(one.body).toEqual({
          currency: 'ETH',
          available_balance: '0.998',
          pending_balance: '0.502',
          total_balance: '1.5',
        });
        const unknown = await server().request('GET', '/v1/triple-a/wallet/balance/xyz', { token: member.token });
        expect(unknown.status).toBe(400);
        expect(unknown.body.error.message).toBe('Currency XYZ is not supported');
        const facade = await server().request('POST', '/v1/triple-a/wallet/withdraw', {
          token: member.token,
          body: { currency: 'eth', amount: '0.2', address: ADDRESSES.ETH },
        });
        expect(facade.status).toBe(201);
        expect((await server().request('GET', '/v1/triple-a/wallet/balances')).status).toBe(401);
      } finally {
        fake.createError = null;
        processorOf(server()).kick();
      }
    });
  },
  { RATE_LIMIT_ENABLED: 'false', PRICE_FEED_ENABLED: 'false', ACCESS_TOKEN_TTL_SECONDS: '86400' },
);

describeEachDatabase(
  'withdrawals: the provider quotes fees and minimums, §9 when it cannot',
  (server) => {
    let fake: FakePayoutProvider;
    let member: Member;

    beforeAll(async () => {
      fake = installFake(server());
      member = await verifiedMember(server());
      await fund(server(), member.id, 'BTC', '1');
    });

    const get = (path: string) => server().request('GET', path, { token: member.token });

    it("answers the provider's fee and applies the same fee to the withdrawal", async () => {
      fake.fee = '0.000421234';
      const estimate = await get('/api/v1/wallet/withdrawal-fee-estimate?currency=btc&amount=0.02');
      expect(estimate.body).toEqual({ currency: 'BTC', amount: '0.02', fee: '0.00042124', total_amount: '0.02042124' });
      const fee = await get('/api/v1/wallet/withdrawal-fee?currency=BTC&amount=0.02');
      expect(fee.body).toEqual({ currency: 'BTC', amount: '0.02', fee: '0.00042124', total: '0.02042124' });
      const answer = await withdraw(server(), member, { currency: 'btc', amount: '0.02', address: ADDRESSES.BTC });
      expect(answer.body).toMatchObject({ fee: '0.00042124', total_amount: '0.02042124' });
      fake.fee = new Error('provider down');
      const fallback = await get('/api/v1/wallet/withdrawal-fee-estimate?currency=btc&amount=0.02');
      expect(fallback.body).toMatchObject({ fee: '0.0001', total_amount: '0.0201' });
      fake.fee = 'not a number';
      expect((await get('/api/v1/wallet/withdrawal-fee?currency=btc&amount=2')).body).toMatchObject({ fee: '0.002' });
      fake.fee = null;
    });

    it("answers the provider's minimums (rounded up to each currency's decimals) and applies them", async () => {
      // A new provider object: the minimums of the one before are cached for a minute.
      fake = installFake(server());
      fake.minimum = '0.005';
      const minimums = await get('/api/v1/wallet/minimum-amounts');
      expect(minimums.body.minimums).toMatchObject({ BTC: '0.005', ETH: '0.005', USDT: '0.01' });
      const small = await withdraw(server(), member, { currency: 'btc', amount: '0.006', address: ADDRESSES.BTC });
      expect(small.status).toBe(201);
      const tooSmall = await withdraw(server(), member, { currency: 'btc', amount: '0.004', address: ADDRESSES.BTC });
      expect(tooSmall.body.error?.message).toBe('Minimum withdrawal amount is 0.005 BTC');
    });

    it('falls back to the §9 minimums and a free deposit when the provider fails', async () => {
      // A new provider object: nothing cached from the one before.
      const failing = installFake(server());
      failing.minimum = new Error('timeout');
      failing.estimateAnswer = new Error('timeout');
      const minimums = await get('/api/v1/wallet/minimum-amounts');
      expect(minimums.body).toMatchObject({ minimums: { BTC: '0.01', USDT: '50', SOL: '0.001' }, default: '0.001' });
      const deposit = await get('/api/v1/wallet/deposit-estimate?currency=eth&amount=1.5');
      expect(deposit.body).toEqual({ currency: 'ETH', amount: '1.5', estimated_amount: '1.5', fee: '0', total: '1.5' });
      failing.estimateAnswer = '1.4912345678';
      const quoted = await get('/api/v1/wallet/deposit-estimate?currency=eth&amount=1.5');
      expect(quoted.body).toEqual({
        currency: 'ETH',
        amount: '1.5',
        estimated_amount: '1.49123456',
        fee: '0.00876544',
        total: '1.5',
      });
      const bad = await get('/api/v1/wallet/deposit-estimate?currency=eth&amount=-1');
      expect(bad.status).toBe(400);
      // Back to a provider that answers, for the payouts still in flight.
      installFake(server());
      await processorOf(server()).idle();
    });
  },
  { RATE_LIMIT_ENABLED: 'false', PRICE_FEED_ENABLED: 'false' },
);
