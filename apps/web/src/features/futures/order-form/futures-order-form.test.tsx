import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { readStorage } from '../../../lib/safe-storage.ts';
import { errorResponse, json, type RecordedCall, stubFetch } from '../../../test/fetch-mock.ts';
import { accountId } from '../../../test/fixtures.ts';
import { futuresRoutes, makeMarket, makePreview, signIn } from '../futures-test-fixtures.ts';
import { renderFutures } from '../futures-test-render.tsx';
import { highLeverageKey } from '../leverage/high-leverage.tsx';
import { FuturesOrderPanel } from './futures-order-panel.tsx';

const market = makeMarket();
const previews = (calls: RecordedCall[]) =>
  calls.filter((call) => call.method === 'POST' && call.path === '/v1/futures/orders/preview');
const placed = (calls: RecordedCall[]) =>
  calls.filter((call) => call.method === 'POST' && call.path === '/v1/futures/orders');

async function chooseMarketOrder(user: ReturnType<typeof renderFutures>['user'], quantity: string) {
  await user.selectOptions(await screen.findByTestId('futures-order-type'), 'market');
  await user.type(screen.getByTestId('futures-quantity'), quantity);
}

describe('futures order form preview', () => {
  it('shows cost, margin, fee and the liquidation price of the resulting position before sending, asked once the form rests', async () => {
    signIn();
    const { calls } = stubFetch({
      ...futuresRoutes(),
      'POST /v1/futures/orders/preview': () => json(200, makePreview()),
    });
    const { user } = renderFutures(<FuturesOrderPanel market={market} priceFill={null} />);
    await chooseMarketOrder(user, '0.1');
    const preview = await screen.findByTestId('futures-preview');
    expect(within(preview).getByTestId('preview-liquidation')).toHaveTextContent('59,123.5');
    expect(within(preview).getByTestId('preview-cost')).toHaveTextContent('122.40 USD');
    expect(within(preview).getByTestId('preview-margin')).toHaveTextContent('120.00 USD');
    expect(within(preview).getByTestId('preview-fee')).toHaveTextContent('2.40 USD');
    expect(within(preview).getByTestId('preview-resulting')).toHaveTextContent('Long 0.100');
    // Typed 0, ., 1: only the settled form was asked, without a client order id.
    expect(previews(calls)).toHaveLength(1);
    expect(previews(calls)[0]?.body).toEqual({ market: 'BTC_USD_PERP', side: 'buy', type: 'market', quantity: '0.1' });
    expect(placed(calls)).toHaveLength(0);
  });

  it("shows the preview's refusal in its words, and a failed preview call in the server's", async () => {
    signIn();
    stubFetch({
      ...futuresRoutes(),
      'POST /v1/futures/orders/preview': [
        () => json(200, makePreview({ error: { code: 'INSUFFICIENT_MARGIN', message: 'Insufficient margin' } })),
        () => errorResponse(422, 'REDUCE_ONLY_WOULD_INCREASE', 'Reduce-only order would increase the position'),
      ],
    });
    const { user } = renderFutures(<FuturesOrderPanel market={market} priceFill={null} />);
    await chooseMarketOrder(user, '5');
    expect(await screen.findByTestId('futures-preview-error')).toHaveTextContent('Insufficient margin');
    await user.click(screen.getByTestId('futures-reduce-only'));
    await waitFor(() =>
      expect(screen.getByTestId('futures-preview-error')).toHaveTextContent(
        'Could not work out the order: Reduce-only order would increase the position',
      ),
    );
  });
});

describe('high leverage confirmation', () => {
  it('asks once per account before the first order above 20x, then remembers it', async () => {
    signIn();
    const { calls } = stubFetch({
      ...futuresRoutes({ leverage: 50 }),
      'POST /v1/futures/orders/preview': () => json(200, makePreview()),
      'POST /v1/futures/orders': (call) =>
        json(201, { ...orderAnswer, client_order_id: (call.body as { client_order_id: string }).client_order_id }),
    });
    const { user } = renderFutures(<FuturesOrderPanel market={market} priceFill={null} />);
    expect(await screen.findByTestId('futures-leverage-button')).toHaveTextContent('50x');
    await chooseMarketOrder(user, '0.1');
    await user.click(screen.getByTestId('futures-order-submit'));
    expect(await screen.findByTestId('futures-risk-dialog')).toHaveTextContent('Leverage above 20x');
    expect(placed(calls)).toHaveLength(0);
    await user.click(screen.getByTestId('futures-risk-accept'));
    await waitFor(() => expect(placed(calls)).toHaveLength(1));
    expect(readStorage(highLeverageKey(accountId))).toBe('1');
    await user.type(screen.getByTestId('futures-quantity'), '0.2');
    await user.click(screen.getByTestId('futures-order-submit'));
    await waitFor(() => expect(placed(calls)).toHaveLength(2));
    expect(screen.queryByTestId('futures-risk-dialog')).not.toBeInTheDocument();
    expect(placed(calls)[1]?.body).toMatchObject({ type: 'market', quantity: '0.2', side: 'buy' });
  });

  it('does not ask at 20x', async () => {
    signIn();
    const { calls } = stubFetch({
      ...futuresRoutes({ leverage: 20 }),
      'POST /v1/futures/orders/preview': () => json(200, makePreview()),
      'POST /v1/futures/orders': () => json(201, orderAnswer),
    });
    const { user } = renderFutures(<FuturesOrderPanel market={market} priceFill={null} />);
    await chooseMarketOrder(user, '0.1');
    await user.click(screen.getByTestId('futures-order-submit'));
    await waitFor(() => expect(placed(calls)).toHaveLength(1));
    expect(screen.queryByTestId('futures-risk-dialog')).not.toBeInTheDocument();
    // The size is emptied for the next order, without a "fill all required fields" reproach.
    await waitFor(() => expect(screen.getByTestId('futures-quantity')).toHaveValue(''));
    expect(screen.queryByTestId('futures-order-error')).not.toBeInTheDocument();
  });
});

const orderAnswer = {
  id: '0b6a3f8e-2c1d-4e5f-8a9b-0c1d2e3f4a5b',
  client_order_id: null,
  market: 'BTC_USD_PERP',
  side: 'buy',
  type: 'market',
  status: 'filled',
  time_in_force: 'IOC',
  post_only: false,
  reduce_only: false,
  close_position: false,
  price: null,
  stop_price: null,
  quantity: '0.1',
  filled_quantity: '0.1',
  average_price: '60000.0',
  fee: '2.4',
  realised_pnl: '0',
  triggered: false,
  origin: 'user',
  reject_reason: null,
  created_at: '2026-11-25T00:00:00.000Z',
  updated_at: '2026-11-25T00:00:00.000Z',
};
