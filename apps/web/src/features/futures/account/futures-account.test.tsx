import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, type RecordedCall, stubFetch } from '../../../test/fetch-mock.ts';
import { accountId } from '../../../test/fixtures.ts';
import { futuresRoutes, makePosition, signIn } from '../futures-test-fixtures.ts';
import { renderFutures } from '../futures-test-render.tsx';
import { applyMarkUpdate } from '../use-futures-live.ts';
import { FuturesAccountTabs } from './futures-account-tabs.tsx';
import { TransferDialog } from './transfer-dialog.tsx';

const posts = (calls: RecordedCall[], path: string) =>
  calls.filter((call) => call.method === 'POST' && call.path === path);

describe('positions tab', () => {
  it('shows each figure at its precision, the risk bar and ADL lights, and moves P&L with the mark', async () => {
    signIn();
    stubFetch(futuresRoutes({ positions: [makePosition()] }));
    const { queryClient } = renderFutures(<FuturesAccountTabs marketId="BTC_USD_PERP" market={undefined} />);
    const row = await screen.findByTestId('position-BTC_USD_PERP');
    const cell = (name: string) => within(row).getByTestId(`position-BTC_USD_PERP-${name}`);
    // Tick 0.1 (one decimal), lot 0.001 (three), USD two.
    await waitFor(() => expect(cell('size')).toHaveTextContent('1.500'));
    expect(cell('entry')).toHaveTextContent('58,000.0');
    expect(cell('mark')).toHaveTextContent('60,000.0');
    expect(cell('liquidation')).toHaveTextContent('52,345.7');
    expect(cell('margin')).toHaveTextContent('8,700.00 USD');
    expect(cell('pnl')).toHaveTextContent('+3,000.00 USD (+34.48%)');
    expect(cell('ratio')).toHaveTextContent('3.91%');
    expect(cell('ratio')).toHaveAttribute('data-risk', 'low');
    expect(cell('adl')).toHaveAttribute('data-rank', '3');
    expect(cell('tpsl')).toHaveTextContent('65,000.0 / —');
    expect(screen.getByTestId('futures-tab-positions')).toHaveTextContent('Positions (1)');
    act(() =>
      applyMarkUpdate(queryClient, accountId, {
        market: 'BTC_USD_PERP',
        mark_price: '61000.5',
        index_price: '61000',
        funding_rate: '0.0001',
        next_funding_time: Date.now() + 1000,
        timestamp: Date.now(),
      }),
    );
    await waitFor(() => expect(cell('pnl')).toHaveTextContent('+4,500.75 USD (+51.73%)'));
    expect(cell('mark')).toHaveTextContent('61,000.5');
  });

  it('lays the positions out as a table: one row per position, one cell per heading, labelled for the phone cards', async () => {
    signIn();
    stubFetch(
      futuresRoutes({
        positions: [
          makePosition({ margin_mode: 'cross', leverage: 50 }),
          makePosition({ market: 'ETH_USD_PERP', side: 'short', size: '-2', leverage: 20 }),
        ],
      }),
    );
    renderFutures(<FuturesAccountTabs marketId="BTC_USD_PERP" market={undefined} />);
    const table = await screen.findByTestId('futures-positions');
    const headings = within(table)
      .getAllByRole('columnheader')
      .map((heading) => heading.textContent);
    expect(headings).toEqual([
      'Market',
      'Size',
      'Entry price',
      'Mark price',
      'Liq. price',
      'Margin',
      'Margin ratio',
      'Unrealised P&L (ROE)',
      'ADL',
      'TP / SL',
      'Close',
    ]);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.dataset.testid)).toEqual(['position-BTC_USD_PERP', 'position-ETH_USD_PERP']);
    for (const row of rows) {
      const cells = within(row).getAllByRole('cell');
      // The narrow layout writes each cell's heading in front of its value.
      expect(cells.map((cell) => cell.dataset.label)).toEqual(headings);
    }
    const [btc, eth] = rows as [HTMLElement, HTMLElement];
    expect(within(btc).getByTestId('position-BTC_USD_PERP-mode')).toHaveTextContent('Cross 50x');
    expect(within(btc).getAllByRole('cell')[0]).toHaveTextContent('Long BTCUSD-PERP');
    expect(within(eth).getByTestId('position-ETH_USD_PERP-mode')).toHaveTextContent('Isolated 20x');
    expect(within(eth).getAllByRole('cell')[0]).toHaveTextContent('Short');
    // Isolated margin can be added; a cross position draws on the wallet.
    expect(within(eth).getByTestId('margin-ETH_USD_PERP')).toBeInTheDocument();
    expect(within(btc).queryByTestId('margin-BTC_USD_PERP')).not.toBeInTheDocument();
  });

  it('closes at market with a close-position order on the opposite side', async () => {
    signIn();
    const { calls } = stubFetch({
      ...futuresRoutes({ positions: [makePosition()] }),
      'POST /v1/futures/orders': () => json(500, {}),
    });
    const { user } = renderFutures(<FuturesAccountTabs marketId="BTC_USD_PERP" market={undefined} />);
    await user.click(await screen.findByTestId('close-market-BTC_USD_PERP'));
    await waitFor(() => expect(posts(calls, '/v1/futures/orders')).toHaveLength(1));
    expect(posts(calls, '/v1/futures/orders')[0]?.body).toMatchObject({
      market: 'BTC_USD_PERP',
      side: 'sell',
      type: 'market',
      close_position: true,
      reduce_only: true,
    });
  });

  it('says so in plain words when there is nothing', async () => {
    signIn();
    stubFetch(futuresRoutes());
    const { user } = renderFutures(<FuturesAccountTabs marketId="BTC_USD_PERP" market={undefined} />);
    expect(await screen.findByText('No open positions')).toBeInTheDocument();
    await user.click(screen.getByTestId('futures-tab-openOrders'));
    expect(await screen.findByText('No open orders')).toBeInTheDocument();
    await user.click(screen.getByTestId('futures-tab-income'));
    expect(await screen.findByText('No funding or income yet')).toBeInTheDocument();
  });
});

describe('transfer dialog', () => {
  it('shows what may move each way and refuses more before asking the server', async () => {
    signIn();
    const { calls } = stubFetch({
      ...futuresRoutes(),
      'POST /v1/futures/transfers': () =>
        json(201, {
          id: 'x1',
          direction: 'to_spot',
          currency: 'USD',
          amount: '7654.32',
          created_at: '2026-11-25T00:00:00Z',
        }),
    });
    const { user } = renderFutures(<TransferDialog onClose={() => {}} />);
    // Spot to futures: the spot wallet's available USD, in cents (2,500.559 -> 2,500.55).
    expect(await screen.findByText('Transferable: 2,500.55 USD')).toBeInTheDocument();
    await user.click(screen.getByTestId('futures-transfer-to_spot'));
    expect(await screen.findByText('Transferable: 7,654.32 USD')).toBeInTheDocument();
    await user.type(screen.getByTestId('futures-transfer-amount'), '7654.33');
    await user.click(screen.getByTestId('futures-transfer-submit'));
    expect(await screen.findByTestId('futures-transfer-error')).toHaveTextContent(
      'The amount is more than can be transferred',
    );
    expect(posts(calls, '/v1/futures/transfers')).toHaveLength(0);
    await user.clear(screen.getByTestId('futures-transfer-amount'));
    await user.click(screen.getByTestId('futures-transfer-max'));
    expect(screen.getByTestId('futures-transfer-amount')).toHaveValue('7654.32');
    await user.click(screen.getByTestId('futures-transfer-submit'));
    await waitFor(() => expect(posts(calls, '/v1/futures/transfers')).toHaveLength(1));
    expect(posts(calls, '/v1/futures/transfers')[0]?.body).toMatchObject({ direction: 'to_spot', amount: '7654.32' });
  });
});
