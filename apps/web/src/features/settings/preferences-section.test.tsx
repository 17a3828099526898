import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../state/app-store.ts';
import { usePreferences } from '../../state/preferences-store.ts';
import { json, stubFetch } from '../../test/fetch-mock.ts';
import { makePair } from '../orders/orders-test-fixtures.ts';
import { PreferencesSection } from './preferences-section.tsx';

const optionTexts = (testId: string) =>
  [...(screen.getByTestId(testId) as HTMLSelectElement).options].map((option) => option.textContent);

function renderSection() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <PreferencesSection />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

describe('Settings > Preferences', () => {
  // A long walk through a form with a 400-option list: more than the default 5 s on a busy machine.
  it('is a real form: every choice applies at once and is kept', { timeout: 30_000 }, async () => {
    stubFetch({
      'GET /v1/trading-pairs': () =>
        json(200, [makePair(), makePair({ id: 'ETH_USD', symbol: 'ETH/USD', base_currency: 'ETH' })]),
    });
    const user = renderSection();
    const section = screen.getByTestId('settings-preferences');
    expect(within(section).queryByText('Coming soon')).not.toBeInTheDocument();

    // (Text queries, not role queries: the time-zone list has some 400 options.)
    await waitFor(() => expect(optionTexts('preference-default-pair')).toEqual(['BTC/USD', 'ETH/USD']));
    await user.selectOptions(screen.getByTestId('preference-default-pair'), 'ETH_USD');
    expect(usePreferences.getState().defaultPair).toBe('ETH_USD');
    // The trade page opens on it now, not on the pair seen last in this session.
    expect(useAppStore.getState().selectedTradingPair).toBe('ETH/USD');

    await user.click(screen.getByTestId('preference-confirm-orders'));
    expect(usePreferences.getState().confirmOrders).toBe(true);
    await user.click(screen.getByTestId('preference-cancel-confirm'));
    expect(usePreferences.getState().cancelMode).toBe('confirm');

    expect(screen.getByTestId('preference-small-threshold')).toBeDisabled();
    await user.click(screen.getByTestId('preference-hide-small'));
    await user.selectOptions(screen.getByTestId('preference-small-threshold'), '10');
    expect(usePreferences.getState()).toMatchObject({ hideSmallBalances: true, smallBalanceUsd: '10' });

    await user.selectOptions(screen.getByTestId('preference-time-zone'), 'Asia/Tokyo');
    expect(usePreferences.getState().timeZone).toBe('Asia/Tokyo');
    expect(optionTexts('preference-number-format')).toEqual([
      'As my language writes it (1,234,567.89)',
      '1,234,567.89',
      '1.234.567,89',
      '1\u202f234\u202f567,89',
    ]);
    await user.selectOptions(screen.getByTestId('preference-number-format'), 'dot-comma');
    expect(usePreferences.getState().numberFormat).toBe('dot-comma');
  });
});
