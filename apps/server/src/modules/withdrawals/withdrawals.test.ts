import type { Notification, WalletTransactionsResponse, Withdrawal, WithdrawalLimits } from '@platform/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../adapters/payments/index.ts';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { totpCode } from '../auth/totp.ts';
import { checkLedgerInvariants } from '../ledger/invariants.ts';
import { systemBalance } from '../ledger/service.ts';
import { balance, fund } from '../trading/test-support.ts';
import { type Member, signUpMember } from '../wallet/test-support.ts';
import {
  ADDRESSES,
  deliverWebhook,
  enableTwoFactor,
  FakePayoutProvider,
  installFake,
  processorOf,
  sent,
  setKycTier,
  verifiedMember,
  waitForWithdrawal,
  withdraw,
} from './test-support.ts';

async function notifications(server: TestServer, member: Member): Promise<Notification[]> {
  const answer = await server.request('GET', '/v1/notifications', { token: member.token });
  return (answer.body as { notifications: Notification[] }).notifications;
}

async function limits(server: TestServer, member: Member): Promise<WithdrawalLimits> {
  const answer = await server.request<WithdrawalLimits>('GET', '/api/v1/wallet/withdrawal-limits', {
    token: member.token,
  });
  return answer.body;
}

describeEachDatabase(
  'withdrawals: rules, holds, payouts through the provider',
  (server) => {
    let fake: FakePayoutProvider;
    let alice: Member;
    let bob: Member;

    beforeAll(async () => {
      fake = installFake(server());
      alice = await verifiedMember(server());
      bob = await verifiedMember(server());
      await fund(server(), alice.id, 'BTC', '1');
      await fund(server(), alice.id, 'ETH', '2');
    });

    it('holds amount + fee at once, sends the payout, and completes once on the finished update', async () => {
      const feesBefore = await systemBalance(server().db, 'fees', 'BTC');
      const custodyBefore = await systemBalance(server().db, 'custody', 'BTC');
      const answer = await withdraw(server(), alice, { currency: 'btc', amount: '0.02', address: ADDRESSES.BTC });
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({
        status: 'pending',
        currency: 'BTC',
        amount: '0.02',
        fee: '0.0001',
        total_amount: '0.0201',
        address: ADDRESSES.BTC,
        extra_id: null,
        reason: null,
        completed_at: null,
      });
      expect(answer.body.payout_id).toBe(answer.body.id);
      expect(Number(answer.body.usd_value)).toBeGreaterThan(0);
      const id = answer.body.id;
      expect(await balance(server(), alice.id, 'BTC')).toEqual({
        currency: 'BTC',
        available: '0.9799',
        locked: '0.0201',
      });

      const onItsWay = await sent(server(), alice, id);
      expect(onItsWay).toMatchObject({
        status: 'pending',
        provider_status: 'creating',
        batch_withdrawal_id: `B-${id.slice(0, 8)}`,
      });
      const request = fake.payouts.get(id)?.request;
      expect(request).toMatchObject({
        reference: id,
        currency: 'BTC',
        amount: '0.02',
        address: ADDRESSES.BTC,
        extraId: null,
      });
      expect(request?.notifyUrl).toMatch(/\/v1\/webhooks\/sandbox$/);

      await deliverWebhook(server(), fake.move(id, 'sending'));
      expect(
        (await server().request('GET', `/api/v1/wallet/payout-status/${id}`, { token: alice.token })).body,
      ).toMatchObject({
        status: 'pending',
        provider_status: 'sending',
      });
      // An older update arriving late does not move the detailed status back.
      await deliverWebhook(server(), { ...fake.move(id, 'sending'), status: 'waiting' });
      const finished = fake.move(id, 'finished', { hash: '0xabc' });
      await Promise.all([deliverWebhook(server(), finished), deliverWebhook(server(), finished)]);
      await deliverWebhook(server(), finished);
      const done = await server().request<Withdrawal>('GET', `/api/v1/wallet/payout-status/${id}`, {
        token: alice.token,
      });
      expect(done.body).toMatchObject({ status: 'completed', provider_status: 'finished', hash: '0xabc' });
      expect(done.body.completed_at).not.toBeNull();

      // Exactly amount + fee left; the amount to custody (it left our wallets), the fee to the fees account.
      expect(await balance(server(), alice.id, 'BTC')).toEqual({ currency: 'BTC', available: '0.9799', locked: '0' });
      const feesAfter = await systemBalance(server().db, 'fees', 'BTC');
      const custodyAfter = await systemBalance(server().db, 'custody', 'BTC');
      expect(Number(feesAfter.available) - Number(feesBefore.available)).toBeCloseTo(0.0001, 10);
      expect(Number(custodyAfter.available) - Number(custodyBefore.available)).toBeCloseTo(0.02, 10);
      const entries = await server().db.query<{ count: string }>(
        "SELECT count(*)::text AS count FROM ledger_entries WHERE reference = $1 AND kind = 'withdrawal'",
        [id],
      );
      expect(entries.rows[0]?.count).toBe('1');

      const notes = await notifications(server(), alice);
      expect(notes.slice(0, 2).map((note) => [note.title, note.severity])).toEqual([
        ['Withdrawal completed', 'success'],
        ['Withdrawal submitted', 'info'],
      ]);
      expect(notes[0]).toMatchObject({ type: 'withdrawal', metadata: { amount: '0.02', transactionId: id } });
      // The client's text: key and raw values (docs/i18n.md "Server texts").
      expect(notes[0]).toMatchObject({
        textKey: 'withdrawalCompleted',
        params: { amount: '0.02', currency: 'BTC', address: ADDRESSES.BTC },
      });
      expect(notes[1]).toMatchObject({ textKey: 'withdrawalSubmitted', params: { currency: 'BTC' } });

      const history = await server().request<WalletTransactionsResponse>(
        'GET',
        '/v1/wallet/transactions?type=withdrawal',
        { token: alice.token },
      );
      expect(history.body.transactions).toEqual([
        expect.objectContaining({ type: 'withdrawal', currency: 'BTC', amount: '-0.0201', reference: id }),
      ]);
      const facade = await server().request('GET', `/v1/triple-a/wallet/withdraw/${id}`, { token: alice.token });
      expect(facade.body).toMatchObject({ id, status: 'completed' });
      const list = await server().request('GET', '/api/v1/wallet/payouts/history?limit=5', { token: alice.token });
      expect(list.body).toMatchObject({ total: 1, limit: 5, withdrawals: [{ id }] });
      const paged = await server().request('GET', '/v1/wallet/payouts?limit=1&page=1', { token: alice.token });
      expect(paged.body).toMatchObject({ total: 1, page: 1, withdrawals: [{ id }] });
    });

    it('a failed or rejected payout gives the hold back, once', async () => {
      const before = await balance(server(), alice.id, 'ETH');
      const first = await withdraw(server(), alice, { currency: 'ETH', amount: '0.1', address: ADDRESSES.ETH });
      const second = await withdraw(server(), alice, { currency: 'eth', amount: '0.2', address: ADDRESSES.ETH });
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(second.body).toMatchObject({ fee: '0.002', total_amount: '0.202' });
      await sent(server(), alice, first.body.id);
      await sent(server(), alice, second.body.id);
      const failed = fake.move(first.body.id, 'failed', { error: 'Address is blacklisted' });
      await Promise.all([deliverWebhook(server(), failed), deliverWebhook(server(), failed)]);
      await deliverWebhook(server(), fake.move(second.body.id, 'rejected'));
      await deliverWebhook(server(), fake.move(second.body.id, 'finished'));
      const one = await server().request<Withdrawal>('GET', `/api/v1/wallet/payout-status/${first.body.id}`, {
        token: alice.token,
      });
      expect(one.body).toMatchObject({ status: 'failed', provider_status: 'failed', reason: 'Address is blacklisted' });
      const two = await server().request<Withdrawal>('GET', `/api/v1/wallet/payout-status/${second.body.id}`, {
        token: alice.token,
      });
      expect(two.body).toMatchObject({ status: 'failed', provider_status: 'rejected' });
      expect(two.body.reason).toMatch(/rejected/);
      expect(await balance(server(), alice.id, 'ETH')).toEqual(before);
      const note = (await notifications(server(), alice)).find((item) => item.metadata.transactionId === first.body.id);
      expect(note).toMatchObject({ title: 'Withdrawal failed', severity: 'error' });
      expect(note?.message).toContain('Address is blacklisted');
      expect(note).toMatchObject({
        textKey: 'withdrawalFailed',
        params: { amount: '0.1', currency: 'ETH', total: '0.102', reason: 'Address is blacklisted' },
      });
      expect(await checkLedgerInvariants(server().db)).toEqual([]);
    });

    it('a lost webhook does not strand a withdrawal: the poll applies the provider status', async () => {
      const answer = await withdraw(server(), alice, { currency: 'btc', amount: '0.01', address: ADDRESSES.BTC });
      await sent(server(), alice, answer.body.id);
      fake.move(answer.body.id, 'finished', { hash: 'polled' });
      // A poll already under way may have asked before the move: the next one sees it.
      await processorOf(server()).poll();
      await processorOf(server()).poll();
      const done = await waitForWithdrawal(server(), alice, answer.body.id, (item) => item.status === 'completed');
      expect(done.hash).toBe('polled');
    });

    it('a provider outage leaves the withdrawal pending with its hold; it goes through when the provider returns', async () => {
      const member = await verifiedMember(server());
      await fund(server(), member.id, 'BTC', '0.5');
      fake.createError = FakePayoutProvider.outage();
      const calls = fake.createCalls;
      try {
        const answer = await withdraw(server(), member, { currency: 'btc', amount: '0.1', address: ADDRESSES.BTC });
        expect(answer.status).toBe(201);
        for (let wait = 0; wait < 400 && fake.createCalls === calls; wait++)
          await new Promise((r) => setTimeout(r, 10));
        expect(fake.createCalls).toBeGreaterThan(calls);
        await processorOf(server()).idle();
        const waiting = await server().request<Withdrawal>('GET', `/api/v1/wallet/payout-status/${answer.body.id}`, {
          token: member.token,
        });
        expect(waiting.body).toMatchObject({ status: 'pending', provider_status: null });
        expect(await balance(server(), member.id, 'BTC')).toEqual({
          currency: 'BTC',
          available: '0.3999',
          locked: '0.1001',
        });
        fake.createError = null;
        // The back-off delay passes.
        server().clock.advance(6 * 60_000);
        processorOf(server()).kick();
        await sent(server(), member, answer.body.id);
        await deliverWebhook(server(), fake.move(answer.body.id, 'finished'));
        await waitForWithdrawal(server(), member, answer.body.id, (item) => item.status === 'completed');
        expect(await balance(server(), member.id, 'BTC')).toEqual({
          currency: 'BTC',
          available: '0.3999',
          locked: '0',
        });
      } finally {
        fake.createError = null;
      }
    });

    describe('a provider that does not recognise a repeated reference (the real ones)', () => {
      const reviewOf = async (id: string) =>
        (
          await server().db.query<{ review_reason: string | null }>(
            'SELECT review_reason FROM withdrawals WHERE id = $1',
            [id],
          )
        ).rows[0]?.review_reason ?? null;

      it('a send that may have reached it (timeout, 5xx) is never repeated: held for review, funds held', async () => {
        const member = await verifiedMember(server());
        await fund(server(), member.id, 'BTC', '0.5');
        fake.idempotentPayouts = false;
        fake.createError = new ProviderError('nowpayments did not answer POST /payout within 30000 ms', {
          provider: 'nowpayments',
          retryable: true,
          delivered: 'maybe',
        });
        const calls = fake.createCalls;
        try {
          const answer = await withdraw(server(), member, { currency: 'btc', amount: '0.1', address: ADDRESSES.BTC });
          expect(answer.status).toBe(201);
          for (let wait = 0; wait < 400 && (await reviewOf(answer.body.id)) === null; wait++)
            await new Promise((r) => setTimeout(r, 10));
          expect(await reviewOf(answer.body.id)).toMatch(/may have received this payout/);
          fake.createError = null;
          server().clock.advance(60 * 60_000);
          processorOf(server()).kick();
          await processorOf(server()).idle();
          // One attempt, never a second, whatever the time.
          expect(fake.createCalls).toBe(calls + 1);
          expect(await balance(server(), member.id, 'BTC')).toEqual({
            currency: 'BTC',
            available: '0.3999',
            locked: '0.1001',
          });
        } finally {
          fake.createError = null;
          fake.idempotentPayouts = true;
        }
      });

      it('a send that surely never left (connection refused) is retried and goes through', async () => {
        const member = await verifiedMember(server());
        await fund(server(), member.id, 'BTC', '0.5');
        fake.idempotentPayouts = false;
        fake.createError = new ProviderError('nowpayments is unreachable', {
          provider: 'nowpayments',
          retryable: true,
          delivered: 'no',
        });
        const calls = fake.createCalls;
        try {
          const answer = await withdraw(server(), member, { currency: 'btc', amount: '0.1', address: ADDRESSES.BTC });
          for (let wait = 0; wait < 400 && fake.createCalls === calls; wait++)
            await new Promise((r) => setTimeout(r, 10));
          await processorOf(server()).idle();
          fake.createError = null;
          server().clock.advance(6 * 60_000);
          processorOf(server()).kick();
          await sent(server(), member, answer.body.id);
          expect(await reviewOf(answer.body.id)).toBeNull();
        } finally {
          fake.createError = null;
          fake.idempotentPayouts = true;
        }
      });

      it('an attempt that ended unrecorded (a crash mid-send) is not sent again by the next claim', async () => {
        const member = await verifiedMember(server());
        await fund(server(), member.id, 'BTC', '0.5');
        fake.idempotentPayouts = false;
        // Keep the processor from sending at once: the provider is down (surely not sent).
        fake.createError = new ProviderError('refused', { provider: 'nowpayments', retryable: true, delivered: 'no' });
        const refusedCalls = fake.createCalls;
        try {
          const answer = await withdraw(server(), member, { currency: 'btc', amount: '0.1', address: ADDRESSES.BTC });
          // Let the first (refused) attempt finish and record itself, or it would overwrite the crash's picture below.
          for (let wait = 0; wait < 400 && fake.createCalls === refusedCalls; wait++)
            await new Promise((r) => setTimeout(r, 10));
          await processorOf(server()).idle();
          // What a crash between the claim and the answer leaves: the attempt marked under way, its lease run out.
          // The refused attempt's retry (a second later) may claim the row and record another refusal
          // over the crash on a slow machine: crash it again until the crash is what the row shows.
          for (let tries = 0; tries < 20; tries++) {
            await server().db.query(
              `UPDATE withdrawals SET in_flight_since = $2, claimed_until = $2, next_attempt_at = $2 WHERE id = $1`,
              [answer.body.id, new Date(server().clock.now.getTime() - 10 * 60_000)],
            );
            await processorOf(server()).idle();
            const row = await server().db.query<{ in_flight_since: Date | null; review_reason: string | null }>(
              'SELECT in_flight_since, review_reason FROM withdrawals WHERE id = $1',
              [answer.body.id],
            );
            if (row.rows[0]?.in_flight_since || row.rows[0]?.review_reason) break;
          }
          fake.createError = null;
          const calls = fake.createCalls;
          processorOf(server()).kick();
          await processorOf(server()).idle();
          expect(fake.createCalls).toBe(calls);
          expect(await reviewOf(answer.body.id)).toMatch(/ended without a recorded answer/);
        } finally {
          fake.createError = null;
          fake.idempotentPayouts = true;
        }
      });
    });

    it('a payout the provider refuses outright fails and the funds come back', async () => {
      const member = await verifiedMember(server());
      await fund(server(), member.id, 'ETH', '1');
      fake.createError = new ProviderError('Invalid address for this network', {
        provider: 'sandbox',
        retryable: false,
      });
      try {
        const answer = await withdraw(server(), member, { currency: 'eth', amount: '0.5', address: ADDRESSES.ETH });
        expect(answer.status).toBe(201);
        const failed = await waitForWithdrawal(server(), member, answer.body.id, (item) => item.status === 'failed');
        expect(failed.reason).toContain('Invalid address for this network');
        expect(await balance(server(), member.id, 'ETH')).toEqual({ currency: 'ETH', available: '1', locked: '0' });
      } finally {
        fake.createError = null;
      }
    });

    describe('refuses bad withdrawals in the words of §5, writing nothing', () => {
      const btc = { currency: 'btc', amount: '0.02', address: ADDRESSES.BTC };
      const cases: [string, Record<string, unknown>, number, string][] = [
        ['zero', { amount: '0' }, 400, 'Amount must be greater than zero'],
        ['zero as a number', { amount: 0 }, 400, 'Amount must be greater than zero'],
        ['negative', { amount: '-1' }, 400, 'Amount must be greater than zero'],
        [
          'negative and unsupported (amount first)',
          { amount: '-1', currency: 'xyz' },
          400,
          'Amount must be greater than zero',
        ],
        ['empty amount', { amount: '' }, 400, 'Invalid amount'],
        ['not a number', { amount: 'lots' }, 400, 'Invalid amount'],
        ['exponent', { amount: '1e3' }, 400, 'Invalid amount'],
        ['huge', { amount: '123456789012345678901' }, 400, 'Invalid amount'],
        ['too many decimals', { amount: '0.123456789' }, 400, 'Amount has more than 8 decimals for BTC'],
        ['unknown currency', { currency: 'xyz' }, 400, 'Currency XYZ is not supported'],
        ['empty currency', { currency: '' }, 400, 'Currency  is not supported'],
        ['below the minimum', { amount: '0.009' }, 400, 'Minimum withdrawal amount is 0.01 BTC'],
        [
          'USDT below the minimum',
          { currency: 'usdt', amount: '49.99', address: ADDRESSES.ETH },
          400,
          'Minimum withdrawal amount is 50 USDT',
        ],
        [
          'USDT with 3 decimals',
          { currency: 'usdt', amount: '50.001', address: ADDRESSES.ETH },
          400,
          'Amount has more than 2 decimals for USDT',
        ],
        [
          'XRP below the minimum',
          { currency: 'xrp', amount: '99', address: ADDRESSES.XRP },
          400,
          'Minimum withdrawal amount is 100 XRP',
        ],
        ['DOGE below the minimum', { currency: 'doge', amount: '499' }, 400, 'Minimum withdrawal amount is 500 DOGE'],
        ['empty address', { address: '' }, 400, 'Please enter a valid wallet address'],
        ['short address', { address: '   bc1qar0s   ' }, 400, 'Please enter a valid wallet address'],
        ['bad BTC address', { address: 'not-a-bitcoin-address' }, 400, 'Invalid BTC address format'],
        ['BTC checksum', { address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3' }, 400, 'Invalid BTC address format'],
        ['ETH address for BTC', { address: ADDRESSES.ETH }, 400, 'Invalid BTC address format'],
        [
          'short ETH address',
          { currency: 'eth', address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44' },
          400,
          'Invalid ETH address format',
        ],
        [
          'ETH checksum',
          { currency: 'eth', address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44E' },
          400,
          'Invalid ETH address format',
        ],
        [
          'USDT to a Tron address',
          { currency: 'usdt', amount: '60', address: 'TN3W4H6rK2ce4vX9YnFQHwKENnHjoxb3m9' },
          400,
          'Invalid USDT address format',
        ],
        ['USDC to a BTC address', { currency: 'USDC', amount: '60' }, 400, 'Invalid USDC address format'],
        [
          'bad LTC address',
          { currency: 'ltc', amount: '0.5', address: 'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH8' },
          400,
          'Invalid LTC address format',
        ],
        [
          'bad XRP address',
          { currency: 'xrp', amount: '100', address: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTi' },
          400,
          'Invalid XRP address format',
        ],
        [
          'XRP tag not a number',
          { currency: 'xrp', amount: '100', address: ADDRESSES.XRP, extra_id: 'abc' },
          400,
          'Invalid destination tag',
        ],
        [
          'XRP tag too large',
          { currency: 'xrp', amount: '100', address: ADDRESSES.XRP, extra_id: '4294967296' },
          400,
          'Invalid destination tag',
        ],
        [
          'XRP tag negative',
          { currency: 'xrp', amount: '100', address: ADDRESSES.XRP, extra_id: -1 },
          400,
          'Invalid destination tag',
        ],
        [
          'XRP tag fraction',
          { currency: 'xrp', amount: '100', address: ADDRESSES.XRP, extra_id: 1.5 },
          400,
          'Invalid destination tag',
        ],
        ['wrong type of amount', { amount: true }, 400, 'Invalid input'],
        ['wrong type of currency', { currency: 5 }, 400, 'Invalid input'],
        ['no address', { address: undefined }, 400, 'Invalid input'],
        ['too long an address', { address: 'x'.repeat(129) }, 400, 'Too big'],
      ];
      for (const [name, change, status, message] of cases) {
        it(name, async () => {
          const before = await balance(server(), bob.id, 'BTC');
          const answer = await withdraw(server(), bob, { ...btc, ...change });
          expect(answer.status).toBe(status);
          expect(answer.body.error?.message).toContain(message);
          expect(await balance(server(), bob.id, 'BTC')).toEqual(before);
        });
      }

      it('more than the balance: Insufficient balance, and nothing recorded', async () => {
        await fund(server(), bob.id, 'BTC', '0.01');
        const answer = await withdraw(server(), bob, { ...btc, amount: '0.01' });
        expect(answer.status).toBe(422);
        expect(answer.body.error?.message).toBe('Insufficient balance');
        expect(await balance(server(), bob.id, 'BTC')).toEqual({ currency: 'BTC', available: '0.01', locked: '0' });
        const list = await server().request('GET', '/api/v1/wallet/payouts/history', { token: bob.token });
        expect(list.body).toMatchObject({ total: 0, withdrawals: [] });
        const anonymous = await server().request('POST', '/api/v1/wallet/withdraw', { body: btc });
        expect(anonymous.status).toBe(401);
      });
    });

    it('reads codes in any case, checks no format for unpatterned currencies, and keeps destination tags', async () => {
      const member = await verifiedMember(server());
      await fund(server(), member.id, 'BTC', '0.1');
      await fund(server(), member.id, 'XRP', '500');
      await fund(server(), member.id, 'SOL', '1');
      for (const currency of ['BTC', 'Btc', ' btc ']) {
        const answer = await withdraw(server(), member, { currency, amount: 0.01, address: ` ${ADDRESSES.BTC} ` });
        expect(answer.status).toBe(201);
        expect(answer.body).toMatchObject({ currency: 'BTC', amount: '0.01', address: ADDRESSES.BTC });
      }
      const xrp = await withdraw(server(), member, {
        currency: 'xrp',
        amount: '100',
        address: ADDRESSES.XRP,
        extra_id: 4294967295,
      });
      expect(xrp.status).toBe(201);
      expect(xrp.body).toMatchObject({ extra_id: '4294967295', fee: '0.1', total_amount: '100.1' });
      const sol = await withdraw(server(), member, { currency: 'sol', amount: '0.5', address: 'any-solana-address-1' });
      expect(sol.status).toBe(201);
      expect(sol.body).toMatchObject({ currency: 'SOL', fee: '0.001' });
      await sent(server(), member, xrp.body.id);
      expect(fake.payouts.get(xrp.body.id)?.request.extraId).toBe('4294967295');
    });

    it('requires a valid, unused 2FA code when 2FA is on (403, never 401)', async () => {
      const member = await verifiedMember(server());
      await fund(server(), member.id, 'BTC', '0.5');
      const secret = await enableTwoFactor(server(), member);
      const body = { currency: 'btc', amount: '0.01', address: ADDRESSES.BTC };

      const missing = await withdraw(server(), member, body);
      expect(missing.status).toBe(403);
      expect(missing.body.error).toMatchObject({
        code: 'WITHDRAWAL_TWO_FACTOR_REQUIRED',
        message: 'Two-factor authentication required',
      });
      const code = totpCode(secret, server().clock.now);
      const wrongCode = String((Number(code) + 500_000) % 1_000_000).padStart(6, '0');
      const wrong = await withdraw(server(), member, { ...body, two_factor_code: wrongCode });
      expect(wrong.status).toBe(403);
      expect(wrong.body.error?.code).toBe('WITHDRAWAL_TWO_FACTOR_INVALID');

      // A withdrawal refused for another reason does not spend the code.
      const broke = await withdraw(server(), member, { ...body, amount: '5', two_factor_code: code });
      expect(broke.status).toBe(422);
      const accepted = await withdraw(server(), member, { ...body, two_factor_code: code });
      expect(accepted.status).toBe(201);
      const reused = await withdraw(server(), member, { ...body, two_factor_code: code });
      expect(reused.status).toBe(403);
      expect(reused.body.error?.code).toBe('WITHDRAWAL_TWO_FACTOR_INVALID');

      server().clock.advance(30_000);
      const next = await withdraw(server(), member, { ...body, two_factor_code: totpCode(secret, server().clock.now) });
      expect(next.status).toBe(201);
      expect(await balance(server(), member.id, 'BTC')).toEqual({
        currency: 'BTC',
        available: '0.4798',
        locked: '0.0202',
      });
    });

    it('keeps each KYC tier within its daily limit, over a rolling 24 hours, failed withdrawals not counted', async () => {
      const member = await signUpMember(server());
      await fund(server(), member.id, 'USDT', '20000');
      const body = { currency: 'usdt', address: ADDRESSES.ETH };
      expect(await limits(server(), member)).toEqual({
        kyc_tier: 'unverified',
        daily_limit_usd: '2000',
        used_usd: '0',
        remaining_usd: '2000',
      });
      const first = await withdraw(server(), member, { ...body, amount: '1500' });
      expect(first.status).toBe(201);
      const left = await limits(server(), member);
      expect(Number(left.remaining_usd)).toBeCloseTo(2000 - Number(first.body.usd_value), 1);
      const over = await withdraw(server(), member, { ...body, amount: '600' });
      expect(over.status).toBe(422);
      expect(over.body.error?.code).toBe('DAILY_LIMIT_EXCEEDED');
      expect(over.body.error?.message).toContain(`${left.remaining_usd} USD of your 2000 USD limit remains`);
      expect(over.body.error?.details).toMatchObject({ kyc_tier: 'unverified', remaining_usd: left.remaining_usd });

      // A failed withdrawal no longer counts.
      await sent(server(), member, first.body.id);
      await deliverWebhook(server(), fake.move(first.body.id, 'failed'));
      const again = await withdraw(server(), member, { ...body, amount: '600' });
      expect(again.status).toBe(201);

      await setKycTier(server(), member, 'verified');
      expect((await limits(server(), member)).daily_limit_usd).toBe('100000');
      const big = await withdraw(server(), member, { ...body, amount: '5000' });
      expect(big.status).toBe(201);

      await setKycTier(server(), member, 'unverified');
      expect((await withdraw(server(), member, { ...body, amount: '50' })).status).toBe(422);
      // A day later (the rows aged rather than the clock moved: sessions would expire with it).
      await server().db.query(
        "UPDATE withdrawals SET created_at = created_at - interval '24 hours 1 second' WHERE account_id = $1",
        [member.id],
      );
      expect((await limits(server(), member)).used_usd).toBe('0');
      expect((await withdraw(server(), member, { ...body, amount: '50' })).status).toBe(201);
    });

    it('concurrent withdrawals at the limit do not both slip under it', async () => {
      const member = await signUpMember(server());
      await fund(server(), member.id, 'USDT', '10000');
      const answers = await Promise.all(
        Array.from({ length: 12 }, () =>
          withdraw(server(), member, { currency: 'usdt', amount: '300', address: ADDRESSES.ETH }),
        ),
      );
      const accepted = answers.filter((answer) => answer.status === 201);
      expect(accepted.length).toBeGreaterThan(0);
      expect(
        answers
          .filter((answer) => answer.status !== 201)
          .every((answer) => answer.body.error?.code === 'DAILY_LIMIT_EXCEEDED'),
      ).toBe(true);
      const each = Number(accepted[0]!.body.usd_value);
      expect(accepted).toHaveLength(Math.floor(2000 / each));
      const after = await limits(server(), member);
      expect(Number(after.used_usd)).toBeLessThanOrEqual(2000);
      expect(Number(after.remaining_usd)).toBeLessThan(each);
      expect(await balance(server(), member.id, 'USDT')).toEqual({
        currency: 'USDT',
        available: String(10000 - accepted.length * 301),
        locked: String(accepted.length * 301),
      });
    });

    it('an idempotency key sent 200 times at once makes one withdrawal; another payload under it is refused', async () => {
      const member = await verifiedMember(server());
      await fund(server(), member.id, 'ETH', '1');
      const body = { currency: 'eth', amount: '0.1', address: ADDRESSES.ETH };
      const answers = await Promise.all(
        Array.from({ length: 200 }, () => withdraw(server(), member, body, 'wd-key-1')),
      );
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
      expect(answers.every((answer) => answer.status === 201 || answer.status === 200)).toBe(true);
      expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
      expect(await balance(server(), member.id, 'ETH')).toEqual({
        currency: 'ETH',
        available: '0.898',
        locked: '0.102',
      });
      const other = await withdraw(server(), member, { ...body, amount: '0.2' }, 'wd-key-1');
      expect(other.status).toBe(409);
      expect(other.body.error?.code).toBe('IDEMPOTENCY_KEY_REUSED');
      const inBody = await withdraw(server(), member, { ...body, currency: 'ETH', idempotency_key: 'wd-key-1' });
      expect(inBody.status).toBe(200);
      expect(inBody.body.id).toBe(answers[0]!.body.id);
      const badKey = await withdraw(server(), member, body, 'not a key!');
      expect(badKey.status).toBe(400);
      const list = await server().request('GET', '/api/v1/wallet/payouts/history', { token: member.token });
      expect(list.body).toMatchObject({ total: 1 });
    });

    it("answers 404 for someone else's withdrawal or payout", async () => {
      const answer = await withdraw(server(), alice, { currency: 'btc', amount: '0.01', address: ADDRESSES.BTC });
      const id = answer.body.id;
      for (const path of [`/api/v1/wallet/payout-status/${id}`, `/v1/triple-a/wallet/withdraw/${id}`]) {
        const peek = await server().request('GET', path, { token: bob.token });
        expect(peek.status).toBe(404);
        expect(peek.body.error).toMatchObject({ code: 'WITHDRAWAL_NOT_FOUND', message: 'Withdrawal not found' });
      }
      const payout = await server().request('GET', `/api/v1/wallet/payout/${id}/status`, { token: bob.token });
      expect(payout.status).toBe(404);
      expect(payout.body.error.code).toBe('PAYOUT_NOT_FOUND');
      const own = await server().request('GET', `/api/v1/wallet/payout/${id}/status`, { token: alice.token });
      expect(own.body).toMatchObject({ id, status: 'pending', withdrawals: [{ id }] });
      const verify = await server().request('POST', '/api/v1/wallet/verify-payout', {
        token: bob.token,
        body: { batch_withdrawal_id: id, verification_code: '123456' },
      });
      expect(verify.status).toBe(404);
      expect(verify.body.error.code).toBe('PAYOUT_NOT_FOUND');
      const malformed = await server().request('GET', '/api/v1/wallet/payout-status/not-a-uuid', {
        token: alice.token,
      });
      expect(malformed.status).toBe(404);
      const anonymous = await server().request('GET', `/api/v1/wallet/payout-status/${id}`);
      expect(anonymous.status).toBe(401);
    });

    it('50 simultaneous withdrawals of one balance: exactly the affordable ones go through', async () => {
      const member = await verifiedMember(server());
      await fund(server(), member.id, 'BTC', '1');
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          withdraw(server(), member, { currency: 'btc', amount: '0.1', address: ADDRESSES.BTC }),
        ),
      );
      // 0.1 + 0.0001 fee each: nine fit in 1 BTC.
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(9);
      expect(
        answers.filter((answer) => answer.status === 422 && answer.body.error?.message === 'Insufficient balance'),
      ).toHaveLength(41);
      expect(await balance(server(), member.id, 'BTC')).toEqual({
        currency: 'BTC',
        available: '0.0991',
        locked: '0.9009',
      });
      expect(await checkLedgerInvariants(server().db)).toEqual([]);
    });
  },
  // Sessions outlive the clock moves of the 2FA and back-off tests.
  { RATE_LIMIT_ENABLED: 'false', PRICE_FEED_ENABLED: 'false', ACCESS_TOKEN_TTL_SECONDS: '86400' },
);
