import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n.ts';
import { loadLanguage } from '../../i18n/locale-loader.ts';
import { Component as HelpFeesScreen } from './help-fees-screen.tsx';

describe('/help/fees', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('writes the fee rates with the language decimal separator', async () => {
    await loadLanguage('de');
    await i18n.changeLanguage('de');
    render(<HelpFeesScreen />);
    const items = screen.getAllByRole('listitem').map((item) => item.textContent ?? '');
    expect(items[0]).toContain('0,1');
    expect(items[1]).toContain('0,02');
    expect(items[1]).toContain('0,04');
    expect(items.join(' ')).not.toMatch(/\b0\.\d/);
  });
});
