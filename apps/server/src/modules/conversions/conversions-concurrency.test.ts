import type { ConversionHistoryResponse, QuickTradeHistoryResponse } from '@platform/contracts';
import { beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { checkLedgerInvariants } from '../ledger/invariants.ts';
import { fund } from '../trading/test-support.ts';
import {
  available,
  convert,
  houseBalances,
  moved,
  newUser,
  quickTrade,
  quote,
  setReferencePrices,
} from './test-support.ts';

describeEachDatabase(
  'conversions under concurrency: replays and double spends',
  (server) => {
    beforeEach(() => {
      setReferencePrices(server());
    });

    it('200 simultaneous retries under one key make one conversion', async () => {
      const user = await newUser(server());
      await fund(server(), user.id, 'BTC', '1');
      const offer = await quote(server(), user, 'BTC', 'USD', '0.1');
      const body = { from_currency: 'BTC', to_currency: 'USD', from_amount: '0.1' };
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, index) =>
          // Half name the quote, half rely on the latest one; half send the key in the header, half in the body.
          index % 2 === 0
            ? convert(server(), user, { ...body, quote_id: offer.quote_id }, 'one-key')
            : convert(server(), user, { ...body, idempotency_key: 'one-key' }),
        ),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      expect(statuses.filter((status) => status === 200)).toHaveLength(199);
      expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
      expect(await available(server(), user, 'BTC')).toBe('0.9');
      expect(await available(server(), user, 'USD')).toBe('4975');
      const history = await server().request('GET', '/api/v1/conversions/history', { token: user.token });
      expect((history.body as ConversionHistoryResponse).conversions).toHaveLength(1);
    });

    it('200 simultaneous retries of a quick trade under one key make one trade', async () => {
      const user = await newUser(server());
      await fund(server(), user.id, 'USD', '1000');
      const body = { sell_currency: 'USD', buy_currency: 'BTC', sell_amount: '100', trade_type: 'market' };
      const answers = await Promise.all(
        Array.from({ length: 200 }, () => quickTrade(server(), user, body, 'trade-key')),
      );
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(199);
      expect(new Set(answers.map((answer) => answer.body.trade.id)).size).toBe(1);
      expect(await available(server(), user, 'USD')).toBe('900');
      const history = await server().request('GET', '/api/v1/trade/history', { token: user.token });
      expect((history.body as QuickTradeHistoryResponse).trades).toHaveLength(1);
    });

    it('50 simultaneous conversions of the same balance: exactly the affordable ones settle', async () => {
      const user = await newUser(server());
      // Seven conversions of 0.05 BTC fit in 0.35 BTC.
      await fund(server(), user.id, 'BTC', '0.35');
      const offers = [];
      for (let index = 0; index < 50; index++) offers.push(await quote(server(), user, 'BTC', 'USD', '0.05'));
      const house = await houseBalances(server(), ['BTC', 'USD']);
      const answers = await Promise.all(
        offers.map((offer) =>
          convert(server(), user, {
            from_currency: 'BTC',
            to_currency: 'USD',
            from_amount: '0.05',
            quote_id: offer.quote_id,
          }),
        ),
      );
      const settled = answers.filter((answer) => answer.status === 201);
      const refused = answers.filter((answer) => answer.status === 422);
      expect(settled).toHaveLength(7);
      expect(refused).toHaveLength(43);
      for (const answer of refused) expect(answer.body.error.code).toBe('INSUFFICIENT_BALANCE');
      expect(await available(server(), user, 'BTC')).toBe('0');
      // 7 x 2,487.5 USD received, 7 x 12.5 to the fees, 7 x 2,500 paid by the desk.
      expect(await available(server(), user, 'USD')).toBe('17412.5');
      const after = await houseBalances(server(), ['BTC', 'USD']);
      expect(moved(house.USD!.fees, after.USD!.fees)).toBe('87.5');
      expect(moved(house.USD!.desk, after.USD!.desk)).toBe('-17500');
      expect(moved(house.BTC!.desk, after.BTC!.desk)).toBe('0.35');
      expect(await checkLedgerInvariants(server().db)).toEqual([]);
    });

    it('50 simultaneous quick trades of the same balance: exactly the affordable ones settle', async () => {
      const user = await newUser(server());
      await fund(server(), user.id, 'USD', '1000');
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          quickTrade(server(), user, { sell_currency: 'USD', buy_currency: 'ADA', sell_amount: '75' }),
        ),
      );
      // 13 x 75 = 975 USD; a fourteenth does not fit.
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(13);
      expect(answers.filter((answer) => answer.status === 422)).toHaveLength(37);
      expect(await available(server(), user, 'USD')).toBe('25');
      // 75 USD = 150 ADA, less 0.75: 149.25 ADA each.
      expect(await available(server(), user, 'ADA')).toBe('1940.25');
    });
  },
  { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' },
);
