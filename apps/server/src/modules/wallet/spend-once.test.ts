import { decimal, eq } from '@platform/money';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { quote, setReferencePrices } from '../conversions/test-support.ts';
import { checkLedgerInvariants } from '../ledger/invariants.ts';
import { balance, fund } from '../trading/test-support.ts';
import { ADDRESSES, installFake } from '../withdrawals/test-support.ts';
import { settled, signUpMember } from './test-support.ts';

/**
 * Issue 5: 50 simultaneous attempts to spend the same balance, by withdrawal, transfer and
 * conversion together, succeed exactly once. The account holds 0.02 BTC; each attempt spends
 * 0.015 BTC (a withdrawal 0.0151 with its fee), so any one leaves too little for every other.
 */
describeEachDatabase(
  'one balance, three ways to spend it, 50 attempts at once',
  (server) => {
    it('exactly one of withdrawals, transfers and conversions goes through; the rest are Insufficient balance', async () => {
      installFake(server());
      setReferencePrices(server());
      const spender = await signUpMember(server());
      const friend = await signUpMember(server());
      await fund(server(), spender.id, 'BTC', '0.02');
      // Verified: the daily withdrawal limit must not be what refuses the attempts, only the balance.
      await server().db.query(`UPDATE accounts SET kyc_tier = 'verified' WHERE id = $1`, [spender.id]);
      const user = { id: spender.id, token: spender.token };
      // Each conversion attempt brings its own valid quote, so only the balance can refuse it.
      const quotes = await Promise.all(Array.from({ length: 16 }, () => quote(server(), user, 'BTC', 'USD', '0.015')));

      const attempts = [
        ...Array.from(
          { length: 17 },
          () => () =>
            server().request('POST', '/api/v1/wallet/withdraw', {
              token: spender.token,
              body: { currency: 'btc', amount: '0.015', address: ADDRESSES.BTC },
            }),
        ),
        ...Array.from(
          { length: 17 },
          () => () =>
            server().request('POST', '/api/v1/wallet/transfer', {
              token: spender.token,
              body: { to_username: friend.username, currency: 'btc', amount: '0.015' },
            }),
        ),
        ...quotes.map(
          (offer) => () =>
            server().request('POST', '/api/v1/conversions', {
              token: spender.token,
              body: { from_currency: 'BTC', to_currency: 'USD', from_amount: '0.015', quote_id: offer.quote_id },
            }),
        ),
      ];
      expect(attempts).toHaveLength(50);

      // Reads during the burst: never a negative balance.
      let reading = true;
      const reads = (async () => {
        const seen: string[] = [];
        while (reading) {
          const answer = await server().request('GET', '/v1/wallet/balances', { token: spender.token });
          for (const row of answer.body.balances as Array<{ available: string; locked: string }>) {
            seen.push(row.available, row.locked);
          }
        }
        return seen;
      })();
      const answers = await Promise.all(attempts.map((attempt) => attempt()));
      reading = false;
      expect((await reads).filter((amount) => amount.startsWith('-'))).toEqual([]);

      const accepted = answers.filter((answer) => answer.status === 201);
      const refused = answers.filter((answer) => answer.status !== 201);
      expect(accepted).toHaveLength(1);
      expect(new Set(refused.map((answer) => `${answer.status} ${answer.body.error?.code}`))).toEqual(
        new Set(['422 INSUFFICIENT_BALANCE']),
      );

      // What is left is the 0.02 less exactly the one spend that won, in the ledger.
      const winner = answers.findIndex((answer) => answer.status === 201);
      const expectBalance = async (accountId: string, currency: string, available: string, locked: string) => {
        const row = await balance(server(), accountId, currency);
        expect(eq(decimal(String(row.available)), decimal(available)), `${currency} available ${row.available}`).toBe(
          true,
        );
        expect(eq(decimal(String(row.locked)), decimal(locked)), `${currency} locked ${row.locked}`).toBe(true);
      };
      if (winner < 17) {
        // The withdrawal holds amount + fee (0.015 + 0.0001) until the provider pays it out.
        await expectBalance(spender.id, 'BTC', '0.0049', '0.0151');
      } else if (winner < 34) {
        await settled(server(), spender, accepted[0]?.body.id);
        await expectBalance(spender.id, 'BTC', '0.005', '0');
        await expectBalance(friend.id, 'BTC', '0.015', '0');
      } else {
        await expectBalance(spender.id, 'BTC', '0.005', '0');
        const usd = await balance(server(), spender.id, 'USD');
        expect(eq(decimal(String(usd.available)), decimal(accepted[0]?.body.to_amount))).toBe(true);
      }
      expect(await checkLedgerInvariants(server().db)).toEqual([]);
    });
  },
  { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' },
);
