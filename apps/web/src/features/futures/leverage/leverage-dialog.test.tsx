import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorResponse, json, type RecordedCall, stubFetch } from '../../../test/fetch-mock.ts';
import { futuresRoutes, makeMarket, makePosition, signIn } from '../futures-test-fixtures.ts';
import { renderFutures } from '../futures-test-render.tsx';
import { FuturesOrderPanel } from '../order-form/futures-order-panel.tsx';

const market = makeMarket();
const puts = (calls: RecordedCall[], path: string) =>
  calls.filter((call) => call.method === 'PUT' && call.path === path);

async function openDialog(user: ReturnType<typeof renderFutures>['user']) {
  await user.click(await screen.findByTestId('futures-leverage-button'));
  return screen.findByTestId('futures-leverage-dialog');
}

describe('leverage dialog', () => {
  it("caps the slider at the maximum of the position's tier and highlights that tier", async () => {
    signIn();
    // A 90,000 USD position is in tier 2 (50,000 - 250,000): at most 50x.
    const { calls } = stubFetch({
      ...futuresRoutes({ positions: [makePosition({ notional: '90000' })] }),
      'PUT /v1/futures/markets/BTC_USD_PERP/leverage': () =>
        json(200, { market: 'BTC_USD_PERP', leverage: 15, margin_mode: 'isolated', max_leverage: 50 }),
    });
    const { user } = renderFutures(<FuturesOrderPanel market={market} priceFill={null} />);
    const dialog = await openDialog(user);
    await waitFor(() => expect(within(dialog).getByTestId('futures-leverage-max')).toHaveTextContent('Maximum 50x'));
    expect(within(dialog).getByTestId('futures-leverage-slider')).toHaveAttribute('max', '50');
    expect(within(dialog).getByTestId('futures-tier-2')).toHaveAttribute('aria-current', 'true');
    expect(within(dialog).getByTestId('futures-tier-1')).not.toHaveAttribute('aria-current');
    expect(within(dialog).getByTestId('futures-tier-2')).toHaveTextContent('50,000.00 – 250,000.00');
    expect(within(dialog).getByTestId('futures-tier-2')).toHaveTextContent('0.50%');
    // A value above the cap is held at it.
    fireEvent.change(within(dialog).getByTestId('futures-leverage-input'), { target: { value: '75' } });
    expect(within(dialog).getByTestId('futures-leverage-input')).toHaveValue(50);
    fireEvent.change(within(dialog).getByTestId('futures-leverage-slider'), { target: { value: '15' } });
    await user.click(within(dialog).getByTestId('futures-leverage-confirm'));
    await waitFor(() => expect(puts(calls, '/v1/futures/markets/BTC_USD_PERP/leverage')).toHaveLength(1));
    expect(puts(calls, '/v1/futures/markets/BTC_USD_PERP/leverage')[0]?.body).toEqual({ leverage: 15 });
    await waitFor(() => expect(screen.queryByTestId('futures-leverage-dialog')).not.toBeInTheDocument());
  });

  it("shows the server's refusal in its words and stays open", async () => {
    signIn();
    stubFetch({
      ...futuresRoutes(),
      'PUT /v1/futures/markets/BTC_USD_PERP/leverage': () =>
        errorResponse(422, 'LEVERAGE_TOO_HIGH', 'Leverage exceeds the maximum for this position size'),
    });
    const { user } = renderFutures(<FuturesOrderPanel market={market} priceFill={null} />);
    const dialog = await openDialog(user);
    fireEvent.change(within(dialog).getByTestId('futures-leverage-input'), { target: { value: '12' } });
    await user.click(within(dialog).getByTestId('futures-leverage-confirm'));
    expect(await within(dialog).findByTestId('futures-leverage-error')).toHaveTextContent(
      'Leverage exceeds the maximum for this position size',
    );
    expect(screen.getByTestId('futures-leverage-dialog')).toBeInTheDocument();
  });

  it('asks for the risk confirmation before setting more than 20x the first time', async () => {
    signIn();
    const { calls } = stubFetch({
      ...futuresRoutes(),
      'PUT /v1/futures/markets/BTC_USD_PERP/leverage': () => json(200, {}),
    });
    const { user } = renderFutures(<FuturesOrderPanel market={market} priceFill={null} />);
    const dialog = await openDialog(user);
    fireEvent.change(within(dialog).getByTestId('futures-leverage-input'), { target: { value: '40' } });
    await user.click(within(dialog).getByTestId('futures-leverage-confirm'));
    expect(await screen.findByTestId('futures-risk-dialog')).toBeInTheDocument();
    expect(puts(calls, '/v1/futures/markets/BTC_USD_PERP/leverage')).toHaveLength(0);
    await user.click(screen.getByTestId('futures-risk-accept'));
    await waitFor(() => expect(puts(calls, '/v1/futures/markets/BTC_USD_PERP/leverage')).toHaveLength(1));
  });
});

describe('margin mode', () => {
  it("shows the server's refusal in its words", async () => {
    signIn();
    stubFetch({
      ...futuresRoutes(),
      'PUT /v1/futures/markets/BTC_USD_PERP/margin-mode': () =>
        errorResponse(
          409,
          'MARGIN_MODE_LOCKED',
          'Margin mode cannot change while a position or an open order exists in this market',
        ),
    });
    const { user } = renderFutures(<FuturesOrderPanel market={market} priceFill={null} />);
    await user.click(await screen.findByTestId('futures-margin-mode-isolated'));
    expect(await screen.findByTestId('futures-margin-mode-error')).toHaveTextContent(
      'Margin mode cannot change while a position or an open order exists in this market',
    );
    expect(screen.getByTestId('futures-margin-mode-cross')).toHaveAttribute('aria-pressed', 'true');
  });
});
