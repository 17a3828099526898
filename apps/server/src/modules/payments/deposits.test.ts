import type { ChainDeposit, DepositAddress, DepositHistoryResponse, Notification } from '@platform/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { accountBalancesTopic } from '../trading/index.ts';
import { balance } from '../trading/test-support.ts';
import { ChainConfirmer, SandboxChain } from './chain.ts';
import { type Account, depositEntries, eventually, signUpAccount } from './test-support.ts';

const CONFIRM_DELAY_MS = 400;

describeEachDatabase(
  'payments: deposit addresses and deposits seen on the sandbox chain',
  (server) => {
    let alice: Account;
    let bob: Account;

    const address = (account: Account | null, currency: string, query = '') =>
      server().request<DepositAddress & { error?: { code: string; message: string } }>(
        'GET',
        `/api/v1/wallet/deposit-address/${currency}${query}`,
        account ? { token: account.token } : {},
      );
    const send = (body: Record<string, unknown>) =>
      server().request<ChainDeposit & { error?: { code: string; message: string } }>(
        'POST',
        '/sandbox/chain/deposits',
        {
          body,
        },
      );
    const chainDeposit = async (id: string) =>
      (await server().request<ChainDeposit>('GET', `/sandbox/chain/deposits/${id}`)).body;

    beforeAll(async () => {
      alice = await signUpAccount(server());
      bob = await signUpAccount(server());
    });

    describe('addresses', () => {
      it('answers one address per account and currency, in the currency’s format, the same every time', async () => {
        const first = await address(alice, 'btc');
        expect(first.status).toBe(200);
        expect(first.body).toMatchObject({
          currency: 'BTC',
          code: 'btc',
          network: 'BTC',
          memo: null,
          min_confirmations: 2,
        });
        expect(first.body.address).toMatch(/^bc1q[02-9ac-hj-np-z]{38}$/);
        expect(first.body.qr).toMatch(/^data:image\/png;base64,/);
        const again = await address(alice, 'BTC');
        expect(again.body.address).toBe(first.body.address);
        // §7.3's own path answers the same.
        const specPath = await server().request<DepositAddress>('GET', '/wallet/deposit-address/btc', {
          token: alice.token,
        });
        expect(specPath.status).toBe(200);
        expect(specPath.body.address).toBe(first.body.address);
        const other = await address(bob, 'btc');
        expect(other.body.address).toMatch(/^bc1q/);
        expect(other.body.address).not.toBe(first.body.address);
      });

      it('uses each network’s real format, one address per network shared by its tokens', async () => {
        const eth = (await address(alice, 'eth')).body;
        expect(eth.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
        expect(eth.address).not.toBe(eth.address.toLowerCase());
        expect(eth.min_confirmations).toBe(12);
        const usdtOnEth = (await address(alice, 'usdt', '?network=eth')).body;
        expect(usdtOnEth).toMatchObject({ currency: 'USDT', code: 'usdterc20', network: 'ETH', address: eth.address });
        const usdt = (await address(alice, 'usdt')).body;
        expect(usdt).toMatchObject({ code: 'usdttrc20', network: 'TRX' });
        expect(usdt.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
        expect((await address(alice, 'doge')).body.address).toMatch(/^D[1-9A-HJ-NP-Za-km-z]{33}$/);
        expect((await address(alice, 'ltc')).body.address).toMatch(/^ltc1q/);
        expect((await address(alice, 'bch')).body.address).toMatch(/^bitcoincash:q/);
        expect((await address(alice, 'sol')).body.address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
        expect((await address(alice, 'usdcsol')).body).toMatchObject({ currency: 'USDC', network: 'SOL' });
      });

      it('gives shared-address networks one address and a memo per account', async () => {
        const aliceXrp = (await address(alice, 'xrp')).body;
        const bobXrp = (await address(bob, 'xrp')).body;
        expect(aliceXrp.address).toMatch(/^r[1-9A-HJ-NP-Za-km-z]{24,34}$/);
        expect(bobXrp.address).toBe(aliceXrp.address);
        expect(aliceXrp.memo_label).toBe('Destination tag');
        expect(aliceXrp.memo).toMatch(/^\d+$/);
        expect(bobXrp.memo).not.toBe(aliceXrp.memo);
        const xlm = (await address(alice, 'xlm')).body;
        expect(xlm.address).toMatch(/^G[A-Z2-7]{55}$/);
        expect(xlm.memo).toBe(aliceXrp.memo);
      });

      it('gives concurrent first requests the same address', async () => {
        const carol = await signUpAccount(server());
        const answers = await Promise.all(Array.from({ length: 8 }, () => address(carol, 'eth')));
        expect(answers.every((answer) => answer.status === 200)).toBe(true);
        expect(new Set(answers.map((answer) => answer.body.address)).size).toBe(1);
        const rows = await server().db.query(`SELECT 1 FROM deposit_addresses WHERE account_id = $1`, [carol.id]);
        expect(rows.rowCount).toBe(1);
      });

      it('refuses unsupported currencies in the §5 words, and strangers', async () => {
        const unknown = await address(alice, 'foo');
        expect(unknown.status).toBe(400);
        expect(unknown.body.error).toMatchObject({
          code: 'CURRENCY_NOT_SUPPORTED',
          message: 'Currency FOO is not supported',
        });
        const fiat = await address(alice, 'usd');
        expect(fiat.body.error?.message).toBe('Currency USD is not supported');
        const wrongNetwork = await address(alice, 'btc', '?network=eth');
        expect(wrongNetwork.status).toBe(400);
        expect((await address(null, 'btc')).status).toBe(401);
      });
    });

    describe('deposits to an address', () => {
      it('credits the owner once, only after the confirmations, and tells them', async () => {
        const to = (await address(alice, 'btc')).body;
        const live: unknown[] = [];
        const unsubscribe = server().pubsub.subscribe(accountBalancesTopic(alice.id), (message) => live.push(message));
        const sent = await send({ currency: 'btc', address: to.address, amount: '0.125' });
        expect(sent.status).toBe(201);
        expect(sent.body).toMatchObject({
          currency: 'BTC',
          network: 'BTC',
          amount: '0.125',
          confirmations: 0,
          required_confirmations: 2,
          status: 'pending',
          attributed: true,
        });
        expect(sent.body.txid).toMatch(/^[0-9a-f]{64}$/);
        expect(await balance(server(), alice.id, 'BTC')).toMatchObject({ available: '0' });

        const done = await eventually(
          () => chainDeposit(sent.body.id),
          (deposit) => deposit.status === 'completed',
        );
        expect(done.confirmations).toBe(2);
        expect(await balance(server(), alice.id, 'BTC')).toMatchObject({ available: '0.125', locked: '0' });
        expect(await depositEntries(server(), sent.body.id)).toBe(1);
        // balance_update pushed live to the account's balances channel.
        await eventually(
          async () => live,
          (messages) => messages.some((message) => (message as { available?: string }).available === '0.125'),
        );
        unsubscribe();

        const history = await server().request<DepositHistoryResponse>('GET', '/api/v1/wallet/deposits', {
          token: alice.token,
        });
        expect(history.body.deposits[0]).toMatchObject({
          id: sent.body.id,
          method: 'address',
          currency: 'BTC',
          amount: '0.125',
          status: 'completed',
          confirmations: 2,
          required_confirmations: 2,
          txid: sent.body.txid,
        });
        const notes = await server().request<{ notifications: Notification[] }>('GET', '/v1/notifications', {
          token: alice.token,
        });
        expect(notes.body.notifications[0]).toMatchObject({
          type: 'deposit',
          title: 'Deposit confirmed',
          severity: 'success',
          metadata: { amount: '0.125', transactionId: sent.body.id },
        });
        const transactions = await server().request('GET', '/v1/wallet/transactions?type=deposit', {
          token: alice.token,
        });
        expect(transactions.body.transactions).toEqual([
          expect.objectContaining({ type: 'deposit', currency: 'BTC', amount: '0.125', reference: sent.body.id }),
        ]);
      });

      it('shows confirmations growing while pending', async () => {
        const to = (await address(bob, 'eth')).body;
        const sent = await send({ currency: 'eth', address: to.address.toLowerCase(), amount: 1 });
        expect(sent.body).toMatchObject({ attributed: true, address: to.address, required_confirmations: 12 });
        const midway = await eventually(
          () => chainDeposit(sent.body.id),
          (deposit) => deposit.confirmations > 0,
        );
        if (midway.status === 'pending')
          expect(await balance(server(), bob.id, 'ETH')).toMatchObject({ available: '0' });
        await eventually(
          () => chainDeposit(sent.body.id),
          (deposit) => deposit.status === 'completed',
        );
        expect(await balance(server(), bob.id, 'ETH')).toMatchObject({ available: '1' });
      });

      it('routes memo networks by memo; an unknown address or memo is recorded and credited to nobody', async () => {
        const xrp = (await address(bob, 'xrp')).body;
        const tagged = await send({ currency: 'xrp', address: xrp.address, memo: xrp.memo, amount: '250.5' });
        expect(tagged.body.attributed).toBe(true);
        const untagged = await send({ currency: 'xrp', address: xrp.address, amount: '3' });
        expect(untagged.body.attributed).toBe(false);
        const stranger = await send({
          currency: 'btc',
          address: 'bc1qhxgzmkmwvrlwvlfn4qe57lx2qdfg8phycnsarn',
          amount: '1',
        });
        expect(stranger.body.attributed).toBe(false);
        for (const id of [tagged.body.id, untagged.body.id, stranger.body.id]) {
          await eventually(
            () => chainDeposit(id),
            (deposit) => deposit.status === 'completed',
          );
        }
        expect(await balance(server(), bob.id, 'XRP')).toMatchObject({ available: '250.5' });
        expect(await depositEntries(server(), untagged.body.id)).toBe(0);
        expect(await depositEntries(server(), stranger.body.id)).toBe(0);
      });

      it('is credited once by confirmers racing (several nodes) and by a restart', async () => {
        const to = (await address(alice, 'ltc')).body;
        const sent = await Promise.all(
          Array.from({ length: 6 }, () => send({ currency: 'ltc', address: to.address, amount: '0.5' })),
        );
        const module = server().services.payments;
        // Instant confirmations: these racers find every deposit ready at once, alongside the module's own.
        const racers = Array.from(
          { length: 3 },
          () => new ChainConfirmer(module.service.deps, new SandboxChain(0), 1000),
        );
        const completed = await Promise.all(racers.map((racer) => racer.pass()));
        for (const deposit of sent) {
          await eventually(
            () => chainDeposit(deposit.body.id),
            (found) => found.status === 'completed',
          );
          expect(await depositEntries(server(), deposit.body.id)).toBe(1);
        }
        expect(completed.reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(sent.length);
        expect(await balance(server(), alice.id, 'LTC')).toMatchObject({ available: '3' });
        // A confirmer starting afresh (after a crash) finds nothing left to do.
        expect(await new ChainConfirmer(module.service.deps, new SandboxChain(0), 1000).pass()).toBe(0);
        expect(await balance(server(), alice.id, 'LTC')).toMatchObject({ available: '3' });
      });

      it('refuses bad inputs in the wallet’s words', async () => {
        const to = (await address(alice, 'btc')).body;
        const zero = await send({ currency: 'btc', address: to.address, amount: '0' });
        expect(zero.status).toBe(400);
        expect(zero.body.error).toMatchObject({
          code: 'AMOUNT_NOT_POSITIVE',
          message: 'Amount must be greater than zero',
        });
        expect((await send({ currency: 'btc', address: to.address, amount: '-1' })).body.error?.code).toBe(
          'AMOUNT_NOT_POSITIVE',
        );
        const decimals = await send({ currency: 'btc', address: to.address, amount: '0.000000001' });
        expect(decimals.body.error?.message).toBe('Amount has more than 8 decimals for BTC');
        expect((await send({ currency: 'btc', address: to.address, amount: 'lots' })).body.error?.message).toBe(
          'Invalid amount',
        );
        expect((await send({ currency: 'btc', address: to.address, amount: '1e400' })).status).toBe(400);
        expect((await send({ currency: 'zzz', address: to.address, amount: '1' })).body.error?.message).toBe(
          'Currency ZZZ is not supported',
        );
        expect((await send({ currency: 'btc', address: '', amount: '1' })).status).toBe(400);
        expect((await send({ currency: 'btc', address: to.address, amount: true })).status).toBe(400);
        const pending = await server().db.query(
          `SELECT 1 FROM chain_deposits WHERE address = $1 AND status = 'pending'`,
          [to.address],
        );
        expect(pending.rowCount).toBe(0);
      });
    });
  },
  {
    PRICE_FEED_ENABLED: 'false',
    RATE_LIMIT_ENABLED: 'false',
    PAYMENT_PROVIDER: 'sandbox',
    SANDBOX_CONFIRM_DELAY_MS: String(CONFIRM_DELAY_MS),
  },
);
