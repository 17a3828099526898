import { SEARCH_HISTORY_STORAGE_KEY } from '@platform/contracts';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { SearchBox } from './search-box.tsx';

function renderSearchBox() {
  const router = createMemoryRouter([{ path: '*', element: <SearchBox /> }], { initialEntries: ['/'] });
  const user = userEvent.setup();
  render(<RouterProvider router={router} />);
  const input = screen.getByRole('combobox', { name: 'Search' });
  const location = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { user, input, location };
}

const storedHistory = () => JSON.parse(localStorage.getItem(SEARCH_HISTORY_STORAGE_KEY) ?? '[]') as string[];
const optionTexts = (name: string) =>
  within(screen.getByRole('listbox', { name }))
    .getAllByRole('option')
    .map((option) => option.textContent);
const selectedOption = () => screen.getByRole('option', { selected: true });

describe('search box before a query (spec §5)', () => {
  it('shows the popular searches when focused and empty', async () => {
    const { user, input } = renderSearchBox();
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    await user.click(input);
    expect(input).toHaveAttribute('aria-expanded', 'true');
    expect(optionTexts('Popular searches')).toEqual([
      'btc',
      'eth',
      'trade',
      'wallet',
      'withdraw',
      'deposit',
      'portfolio',
    ]);
    expect(selectedOption()).toHaveTextContent('btc');
    expect(input).toHaveAttribute('aria-activedescendant', selectedOption().id);
  });

  it('moves through the popular searches with the arrows and puts the chosen one in the box', async () => {
    const { user, input, location } = renderSearchBox();
    await user.click(input);
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(selectedOption()).toHaveTextContent('trade');
    await user.keyboard('{ArrowUp}');
    expect(selectedOption()).toHaveTextContent('eth');
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(selectedOption()).toHaveTextContent('portfolio');
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(input).toHaveValue('eth');
    expect(optionTexts('Search results')[0]).toContain('ETH/USD');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location()).toBe('/trade?pair=ETH/USD'));
    expect(storedHistory()).toEqual(['eth']);
  });

  it('picks a popular search with the mouse', async () => {
    const { user, input } = renderSearchBox();
    await user.click(input);
    await user.click(screen.getByRole('option', { name: 'wallet' }));
    expect(input).toHaveValue('wallet');
    expect(input).toHaveFocus();
    expect(screen.getByRole('listbox', { name: 'Search results' })).toBeInTheDocument();
  });

  it('shows the 5 most recent searches, newest first, for a single character', async () => {
    localStorage.setItem(
      SEARCH_HISTORY_STORAGE_KEY,
      JSON.stringify(['deposit', 'sol', 'wallet', 'eth', 'btc', 'trade', 'markets']),
    );
    const { user, input } = renderSearchBox();
    await user.type(input, 'x');
    expect(optionTexts('Recent searches')).toEqual(['deposit', 'sol', 'wallet', 'eth', 'btc']);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(input).toHaveValue('sol');
    expect(optionTexts('Search results')[0]).toContain('SOL/USD');
  });

  it('asks for 2 characters when a single character has no recent searches', async () => {
    const { user, input } = renderSearchBox();
    await user.type(input, 'b');
    expect(screen.getByText('Type at least 2 characters to search')).toBeInTheDocument();
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    await user.type(input, 't');
    expect(screen.getByRole('listbox', { name: 'Search results' })).toBeInTheDocument();
  });

  it('records the query of an opened result, moving a repeated one to the front', async () => {
    localStorage.setItem(SEARCH_HISTORY_STORAGE_KEY, JSON.stringify(['markets', 'btc']));
    const { user, input, location } = renderSearchBox();
    await user.type(input, 'btc');
    await user.click(screen.getAllByRole('option')[0] as HTMLElement);
    await waitFor(() => expect(location()).toBe('/trade?pair=BTC/USD'));
    expect(storedHistory()).toEqual(['btc', 'markets']);
    expect(input).toHaveValue('');
    await user.type(input, 'd');
    expect(optionTexts('Recent searches')).toEqual(['btc', 'markets']);
  });

  it('closes with Escape and opens again with the arrow keys', async () => {
    const { user, input } = renderSearchBox();
    await user.click(input);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(input).toHaveAttribute('aria-expanded', 'false');
    await user.keyboard('{ArrowDown}');
    expect(selectedOption()).toHaveTextContent('btc');
  });

  it('still opens a result when the history cannot be saved', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('Quota exceeded', 'QuotaExceededError');
    });
    const { user, input, location } = renderSearchBox();
    await user.type(input, 'deposit{Enter}');
    await waitFor(() => expect(location()).toBe('/wallet?action=deposit'));
    expect(warn).toHaveBeenCalled();
    // The query is still remembered for this page.
    await user.type(input, 'd');
    expect(optionTexts('Recent searches')).toEqual(['deposit']);
  });
});
