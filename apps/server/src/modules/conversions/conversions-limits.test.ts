import { beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { checkLedgerInvariants } from '../ledger/invariants.ts';
import { fund } from '../trading/test-support.ts';
import { available, convert, estimate, newUser, quickTrade, quote, setReferencePrices } from './test-support.ts';

/** Small limits so that a few hundred requests reach them: 1,000 USD per account, 3,000 house-wide. */
const LIMITS = { CONVERSION_ACCOUNT_LIMIT_USD: '1000', CONVERSION_HOUSE_LIMIT_USD: '3000' };
const MINUTE_AND_A_SECOND_MS = 61_000;
/**
 * 300 settlements in a row on PGlite take 10-20 s, more on a busy machine. The counts below hold
 * while the whole burst lands within one sliding minute (past it, the first trades leave the window).
 */
const HEAVY_TEST_MS = 120_000;

describeEachDatabase(
  'conversion exposure limits',
  (server) => {
    beforeEach(() => {
      // Every test starts a new window: the last one's conversions are more than a minute old.
      server().clock.advance(MINUTE_AND_A_SECOND_MS);
      setReferencePrices(server());
    });

    const usdSum = async (accountId: string | null) => {
      const since = new Date(server().clock.now.getTime() - 60_000);
      const found = await server().db.query<{ total: string }>(
        `SELECT COALESCE(SUM(usd_value), 0)::text AS total FROM conversions
         WHERE created_at > $1 AND ($2::uuid IS NULL OR account_id = $2::uuid)`,
        [since, accountId],
      );
      return Number(found.rows[0]?.total);
    };

    it(
      '300 simultaneous quick trades of one account: exactly 1,000 USD settle, the rest are refused with what is left',
      async () => {
        const user = await newUser(server());
        await fund(server(), user.id, 'USD', '10000');
        const answers = await Promise.all(
          Array.from({ length: 300 }, () =>
            quickTrade(server(), user, { sell_currency: 'USD', buy_currency: 'BTC', sell_amount: '10' }),
          ),
        );
        const settled = answers.filter((answer) => answer.status === 201);
        const refused = answers.filter((answer) => answer.status === 422);
        expect(settled).toHaveLength(100);
        expect(refused).toHaveLength(200);
        for (const answer of refused) expect(answer.body.error.code).toBe('CONVERSION_LIMIT_EXCEEDED');
        const last = refused[refused.length - 1]!;
        expect(last.body.error).toMatchObject({
          message:
            'You can convert up to 1000 USD per minute, and 0 USD of it is left right now. Try a smaller amount or wait a minute.',
          details: { limit_usd: '1000', used_usd: '1000', left_usd: '0', requested_usd: '10', window_seconds: 60 },
        });
        expect(await available(server(), user, 'USD')).toBe('9000');
        // 100 x 10 USD = 0.02 BTC, less 0.5 %: 0.0199 BTC.
        expect(await available(server(), user, 'BTC')).toBe('0.0199');
        expect(await usdSum(user.id)).toBe(1000);

        // The estimate says so before any execution; a minute later the window is free again.
        const early = await estimate(server(), user, { from_currency: 'USD', to_currency: 'BTC', from_amount: '10' });
        expect(early.status).toBe(422);
        expect(early.body.error.code).toBe('CONVERSION_LIMIT_EXCEEDED');
        server().clock.advance(MINUTE_AND_A_SECOND_MS);
        setReferencePrices(server());
        const later = await quickTrade(server(), user, {
          sell_currency: 'USD',
          buy_currency: 'BTC',
          sell_amount: '10',
        });
        expect(later.status).toBe(201);
        expect(await checkLedgerInvariants(server().db)).toEqual([]);
      },
      HEAVY_TEST_MS,
    );

    it(
      '300 simultaneous quick trades of 20 accounts: exactly 3,000 USD settle house-wide',
      async () => {
        const users = await Promise.all(Array.from({ length: 20 }, () => newUser(server())));
        for (const user of users) await fund(server(), user.id, 'USD', '1000');
        // 15 trades of 15 USD per account: 225 USD each, within its own limit; 4,500 USD in all.
        const answers = await Promise.all(
          Array.from({ length: 300 }, (_, index) =>
            quickTrade(server(), users[index % 20]!, { sell_currency: 'USD', buy_currency: 'ETH', sell_amount: '15' }),
          ),
        );
        const settled = answers.filter((answer) => answer.status === 201);
        const refused = answers.filter((answer) => answer.status === 503);
        expect(settled).toHaveLength(200);
        expect(refused).toHaveLength(100);
        for (const answer of refused) {
          expect(answer.body.error).toMatchObject({
            code: 'CONVERSION_CAPACITY_EXCEEDED',
            message: 'Conversions are very busy right now. Please try again in a minute.',
          });
        }
        expect(await usdSum(null)).toBe(3000);
        expect(await checkLedgerInvariants(server().db)).toEqual([]);
      },
      HEAVY_TEST_MS,
    );

    it('counts conversions from quotes too, valued at the reference, and answers with Retry-After', async () => {
      const user = await newUser(server());
      await fund(server(), user.id, 'BTC', '1');
      // 0.019 BTC = 950 USD; the estimate of 0.002 BTC more (100 USD) is refused before any execution.
      const offer = await quote(server(), user, 'BTC', 'USD', '0.019');
      const done = await convert(server(), user, {
        from_currency: 'BTC',
        to_currency: 'USD',
        from_amount: '0.019',
        quote_id: offer.quote_id,
      });
      expect(done.status).toBe(201);
      const over = await estimate(server(), user, { from_currency: 'BTC', to_currency: 'USD', from_amount: '0.002' });
      expect(over.status).toBe(422);
      expect(over.headers.get('retry-after')).toBe('60');
      expect(over.body.error.details).toMatchObject({ left_usd: '50', requested_usd: '100' });
      // 0.001 BTC (50 USD) still fits.
      expect(
        (await estimate(server(), user, { from_currency: 'BTC', to_currency: 'USD', from_amount: '0.001' })).status,
      ).toBe(200);
    });
  },
  { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false', ...LIMITS },
);
