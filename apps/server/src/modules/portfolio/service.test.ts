import type { FuturesAccount } from '@platform/contracts';
import { describe, expect, it, vi } from 'vitest';
import { PORTFOLIO_OPTIMISTIC_READS, type PortfolioDeps, portfolioSummary } from './service.ts';
import { usdPriceLookup } from './valuation.ts';

const account = (wallet: string): FuturesAccount => ({
  currency: 'USD',
  wallet_balance: wallet,
  unrealised_pnl: '0',
  margin_balance: wallet,
  cross_initial_margin: '0',
  cross_maintenance_margin: '0',
  isolated_margin: '0',
  order_margin: '0',
  available_balance: wallet,
  transferable: wallet,
  margin_ratio: '0',
});

/** An account whose balances change under every read: 10 USD moving between spot and futures. */
function churning() {
  let version = 0;
  const overview = vi.fn(async () => ({ account: account('10'), positions: [] }));
  const overviewAlongside = vi.fn(async <T>(_id: string, read: () => Promise<T>) => ({
    value: await read(),
    account: account('0'),
    positions: [],
  }));
  const balances = vi.fn(async () => [{ currency: 'USD', available: version % 2 === 0 ? '100' : '90', locked: '0' }]);
  const deps = {
    balances: { balances },
    futures: { accounts: { overview, overviewAlongside }, markets: new Map() },
    prices: usdPriceLookup(() => undefined),
    changes: { version: () => String(version++) },
    clock: () => new Date(0),
    method: async () => 'fifo',
    lots: async () => () => undefined,
  } as unknown as PortfolioDeps;
  return { deps, overview, overviewAlongside, balances };
}

describe('portfolioSummary reads', () => {
  it('falls back to a read under the futures queue when the balances keep changing', async () => {
    const { deps, overview, overviewAlongside, balances } = churning();
    const summary = await portfolioSummary(deps, 'a');
    expect(overview).toHaveBeenCalledTimes(PORTFOLIO_OPTIMISTIC_READS);
    expect(overviewAlongside).toHaveBeenCalledTimes(1);
    expect(balances).toHaveBeenCalledTimes(PORTFOLIO_OPTIMISTIC_READS + 1);
    // The answer is the held pair's: its spot balance and its futures wallet, never a mix.
    expect(summary.futures.wallet_balance).toBe('0');
    expect(summary.holdings.map((h) => h.amount)).toEqual([expect.stringMatching(/^(100|90)$/)]);
  });

  it('answers the first pair when nothing changed between its reads', async () => {
    const { deps, overview, overviewAlongside } = churning();
    deps.changes = { version: () => '0:1' };
    const summary = await portfolioSummary(deps, 'a');
    expect(overview).toHaveBeenCalledTimes(1);
    expect(overviewAlongside).not.toHaveBeenCalled();
    expect(summary.total_value).toBe('110');
  });
});
