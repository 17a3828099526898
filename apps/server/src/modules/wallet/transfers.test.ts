import type { Notification, WalletBalance, WalletTransactionsResponse } from '@platform/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { checkLedgerInvariants } from '../ledger/invariants.ts';
import { balance, fund } from '../trading/test-support.ts';
import { type Member, sendTransfer, settled, signUpMember } from './test-support.ts';

describeEachDatabase(
  'wallet: transfers between users, balances and history',
  (server) => {
    let alice: Member;
    let bob: Member;
    let carol: Member;

    beforeAll(async () => {
      alice = await signUpMember(server());
      bob = await signUpMember(server());
      carol = await signUpMember(server());
      await fund(server(), alice.id, 'BTC', '1');
      await fund(server(), alice.id, 'USDT', '500');
    });

    it('sends to a username: held at once, FINISHED shortly after, both sides told', async () => {
      const sent = await sendTransfer(server(), alice, {
        to_username: bob.username.toUpperCase(),
        currency: 'btc',
        amount: '0.25',
        memo: 'lunch',
      });
      expect(sent.status).toBe(201);
      expect(sent.body).toMatchObject({
        direction: 'sent',
        from_username: alice.username,
        to_username: bob.username,
        currency: 'BTC',
        amount: '0.25',
        memo: 'lunch',
      });
      expect(['CREATED', 'WAITING', 'FINISHED']).toContain(sent.body.status);

      const done = await settled(server(), bob, sent.body.id);
      expect(done).toMatchObject({ status: 'FINISHED', direction: 'received', amount: '0.25' });
      expect(await balance(server(), alice.id, 'BTC')).toEqual({ currency: 'BTC', available: '0.75', locked: '0' });
      expect(await balance(server(), bob.id, 'BTC')).toEqual({ currency: 'BTC', available: '0.25', locked: '0' });

      const history = await server().request('GET', '/api/v1/wallet/transfers/history', { token: bob.token });
      expect(history.body).toMatchObject({ total: 1, transfers: [{ id: sent.body.id, direction: 'received' }] });

      const bobNotes = await server().request('GET', '/v1/notifications', { token: bob.token });
      const notes = (bobNotes.body as { notifications: Notification[] }).notifications;
      expect(notes[0]).toMatchObject({
        type: 'deposit',
        title: 'Transfer received',
        message: `Received 0.25 BTC from @${alice.username}`,
        severity: 'success',
        metadata: { amount: '0.25', transactionId: sent.body.id },
      });
      const aliceNotes = await server().request('GET', '/v1/notifications', { token: alice.token });
      expect((aliceNotes.body as { notifications: Notification[] }).notifications[0]).toMatchObject({
        title: 'Transfer sent',
        message: `Sent 0.25 BTC to @${bob.username}`,
      });

      const aliceTx = await server().request<WalletTransactionsResponse>(
        'GET',
        '/v1/wallet/transactions?currency=btc&type=transfer_out',
        { token: alice.token },
      );
      expect(aliceTx.body.transactions).toEqual([
        expect.objectContaining({
          type: 'transfer_out',
          currency: 'BTC',
          amount: '-0.25',
          reference: sent.body.id,
          counterparty: bob.username,
        }),
      ]);
      const bobTx = await server().request<WalletTransactionsResponse>('GET', '/v1/wallet/transactions', {
        token: bob.token,
      });
      // The recipient's history names the sender.
      expect(bobTx.body.transactions.map((item) => [item.type, item.amount, item.counterparty])).toEqual([
        ['transfer_in', '0.25', alice.username],
      ]);
      const deposits = await server().request<WalletTransactionsResponse>(
        'GET',
        '/v1/wallet/transactions?type=deposit',
        { token: alice.token },
      );
      expect(deposits.body.total).toBe(2);
    });

    it('lists a zero row for every wallet currency not held', async () => {
      const response = await server().request<{ balances: WalletBalance[] }>('GET', '/v1/wallet/balances', {
        token: carol.token,
      });
      expect(response.status).toBe(200);
      const currencies = response.body.balances.map((row) => row.currency);
      expect(currencies).toEqual(expect.arrayContaining(['BTC', 'ETH', 'USDT', 'USD', 'DOGE']));
      expect(new Set(currencies).size).toBe(currencies.length);
      expect(response.body.balances.every((row) => row.available === '0' && row.locked === '0')).toBe(true);
      const anonymous = await server().request('GET', '/v1/wallet/balances');
      expect(anonymous.status).toBe(401);
    });

    describe('refuses bad transfers in the words of §5, writing nothing', () => {
      const cases: [string, Record<string, unknown>, number, string][] = [
        ['zero', { amount: '0' }, 400, 'Amount must be greater than zero'],
        ['negative', { amount: '-1' }, 400, 'Amount must be greater than zero'],
        ['not a number', { amount: 'lots' }, 400, 'Invalid amount'],
        ['empty amount', { amount: '' }, 400, 'Invalid amount'],
        ['exponent', { amount: '1e3' }, 400, 'Invalid amount'],
        ['huge', { amount: '123456789012345678901' }, 400, 'Invalid amount'],
        ['too many decimals', { amount: '0.123456789' }, 400, 'Amount has more than 8 decimals for BTC'],
        ['below the minimum', { amount: '0.0000001' }, 400, 'Minimum transfer amount is 0.000001 BTC'],
        ['unknown currency', { currency: 'xyz' }, 400, 'Currency XYZ is not supported'],
        ['short username', { to_username: ' a ' }, 400, 'Please enter a valid username'],
        ['unknown username', { to_username: 'nobody_here_at_all' }, 404, 'No user with this username'],
        ['wrong type', { amount: true }, 400, 'Invalid input'],
      ];
      for (const [name, change, status, message] of cases) {
        it(name, async () => {
          const response = await sendTransfer(server(), alice, {
            to_username: bob.username,
            currency: 'btc',
            amount: '0.01',
            ...change,
          });
          expect(response.status).toBe(status);
          expect(response.body.error?.message).toBe(message);
        });
      }

      it('to oneself, or more than the balance', async () => {
        const self = await sendTransfer(server(), alice, {
          to_username: alice.username,
          currency: 'btc',
          amount: '0.1',
        });
        expect(self.status).toBe(400);
        expect(self.body.error?.message).toBe('You cannot send funds to yourself');
        const before = await balance(server(), carol.id, 'ETH');
        const broke = await sendTransfer(server(), carol, { to_username: bob.username, currency: 'eth', amount: '1' });
        expect(broke.status).toBe(422);
        expect(broke.body.error?.message).toBe('Insufficient balance');
        expect(await balance(server(), carol.id, 'ETH')).toEqual(before);
        const history = await server().request('GET', '/api/v1/wallet/transfers/history', { token: carol.token });
        expect(history.body).toMatchObject({ total: 0, transfers: [] });
      });
    });

    it("hides other people's transfers", async () => {
      const sent = await sendTransfer(server(), alice, { to_username: bob.username, currency: 'usdt', amount: '5' });
      expect(sent.status).toBe(201);
      const peek = await server().request('GET', `/api/v1/wallet/transfer/${sent.body.id}/status`, {
        token: carol.token,
      });
      expect(peek.status).toBe(404);
      expect((peek.body as { error: { message: string } }).error.message).toBe('Transfer not found');
      const malformed = await server().request('GET', '/api/v1/wallet/transfer/not-a-uuid/status', {
        token: carol.token,
      });
      expect(malformed.status).toBe(400);
    });

    it('an idempotency key sent 200 times at once has one effect; another request under it is refused', async () => {
      const sender = await signUpMember(server());
      await fund(server(), sender.id, 'USDT', '100');
      const body = { to_username: carol.username, currency: 'usdt', amount: '7.5' };
      const answers = await Promise.all(
        Array.from({ length: 200 }, () => sendTransfer(server(), sender, body, 'pay-carol-1')),
      );
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
      expect(answers.every((answer) => answer.status === 201 || answer.status === 200)).toBe(true);
      expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
      await settled(server(), sender, answers[0]!.body.id);
      expect(await balance(server(), sender.id, 'USDT')).toEqual({ currency: 'USDT', available: '92.5', locked: '0' });
      const other = await sendTransfer(server(), sender, { ...body, amount: '8' }, 'pay-carol-1');
      expect(other.status).toBe(409);
      const inBody = await sendTransfer(server(), sender, { ...body, idempotency_key: 'pay-carol-1' });
      expect(inBody.status).toBe(200);
      expect(inBody.body.id).toBe(answers[0]!.body.id);
    });

    it('50 simultaneous transfers of the same balance: exactly one goes through', async () => {
      const sender = await signUpMember(server());
      await fund(server(), sender.id, 'ETH', '2');
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          sendTransfer(server(), sender, {
            to_username: index % 2 === 0 ? bob.username : carol.username,
            currency: 'eth',
            amount: '1.5',
          }),
        ),
      );
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
      expect(answers.filter((answer) => answer.status === 422)).toHaveLength(49);
      const id = answers.find((answer) => answer.status === 201)!.body.id;
      await settled(server(), sender, id);
      expect(await balance(server(), sender.id, 'ETH')).toEqual({ currency: 'ETH', available: '0.5', locked: '0' });
      expect(await checkLedgerInvariants(server().db)).toEqual([]);
    });

    it('quotes withdrawal fees, deposit estimates and minimums', async () => {
      const estimate = await server().request('GET', '/api/v1/wallet/withdrawal-fee-estimate?currency=btc&amount=2', {
        token: carol.token,
      });
      expect(estimate.status).toBe(200);
      expect(estimate.body).toEqual({ currency: 'BTC', amount: '2', fee: '0.002', total_amount: '2.002' });
      const fee = await server().request('GET', '/api/v1/wallet/withdrawal-fee?currency=usdt&amount=100', {
        token: carol.token,
      });
      expect(fee.body).toEqual({ currency: 'USDT', amount: '100', fee: '1', total: '101' });
      const deposit = await server().request('GET', '/api/v1/wallet/deposit-estimate?currency=eth&amount=1.5', {
        token: carol.token,
      });
      expect(deposit.body).toEqual({ currency: 'ETH', amount: '1.5', estimated_amount: '1.5', fee: '0', total: '1.5' });
      const minimums = await server().request<{ minimums: Record<string, string>; default: string }>(
        'GET',
        '/api/v1/wallet/minimum-amounts',
        { token: carol.token },
      );
      expect(minimums.body.minimums).toMatchObject({ BTC: '0.01', USDT: '50', DOGE: '500', SOL: '0.001' });
      expect(minimums.body.default).toBe('0.001');
      const bad = await server().request('GET', '/api/v1/wallet/withdrawal-fee-estimate?currency=btc&amount=-1', {
        token: carol.token,
      });
      expect(bad.status).toBe(400);
      expect((bad.body as { error: { message: string } }).error.message).toBe('Amount must be greater than zero');
      const unknown = await server().request('GET', '/api/v1/wallet/withdrawal-fee?currency=abc&amount=1', {
        token: carol.token,
      });
      expect((unknown.body as { error: { message: string } }).error.message).toBe('Currency ABC is not supported');
    });
  },
  { RATE_LIMIT_ENABLED: 'false' },
);
