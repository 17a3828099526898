import type { FuturesPosition } from '@platform/contracts';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { accountId } from '../../test/fixtures.ts';
import { futuresKeys } from './futures-queries.ts';
import { makeFuturesAccount, makePosition } from './futures-test-fixtures.ts';
import { applyMarkUpdate, applyPositionUpdate } from './use-futures-live.ts';

const eth = makePosition({ market: 'ETH_USD_PERP', entry_price: '3000', mark_price: '3000', size: '2' });

describe('live futures channels', () => {
  it('replaces a position and the account on position_update, and drops a closed one', () => {
    const client = new QueryClient();
    client.setQueryData(futuresKeys.positions(accountId), [makePosition(), eth]);
    const moved = makePosition({ size: '2.5', liquidation_price: '50000.1' });
    const account = makeFuturesAccount({ available_balance: '123.45' });
    applyPositionUpdate(client, accountId, { market: 'BTC_USD_PERP', position: moved, account, reason: 'fill' });
    const after = client.getQueryData<FuturesPosition[]>(futuresKeys.positions(accountId));
    expect(after?.find((position) => position.market === 'BTC_USD_PERP')?.size).toBe('2.5');
    expect(after).toHaveLength(2);
    expect(client.getQueryData(futuresKeys.account(accountId))).toEqual(account);
    applyPositionUpdate(client, accountId, { market: 'BTC_USD_PERP', position: null, account, reason: 'liquidation' });
    expect(client.getQueryData<FuturesPosition[]>(futuresKeys.positions(accountId))?.map((p) => p.market)).toEqual([
      'ETH_USD_PERP',
    ]);
  });

  it('moves only the positions of the marked market, and ignores a payload that is not a mark', () => {
    const client = new QueryClient();
    client.setQueryData(futuresKeys.positions(accountId), [makePosition(), eth]);
    const mark = {
      market: 'ETH_USD_PERP',
      mark_price: '3100',
      index_price: '3099',
      funding_rate: '0',
      next_funding_time: 1,
      timestamp: 1,
    };
    applyMarkUpdate(client, accountId, mark);
    const after = client.getQueryData<FuturesPosition[]>(futuresKeys.positions(accountId));
    expect(after?.find((p) => p.market === 'ETH_USD_PERP')?.unrealised_pnl).toBe('200.00000000');
    expect(after?.find((p) => p.market === 'BTC_USD_PERP')?.unrealised_pnl).toBe('3000');
    expect(client.getQueryData(futuresKeys.mark('ETH_USD_PERP'))).toEqual(mark);
    applyMarkUpdate(client, accountId, { market: 'ETH_USD_PERP', mark_price: 'nope' });
    expect(client.getQueryData(futuresKeys.mark('ETH_USD_PERP'))).toEqual(mark);
  });
});
