import { isOrderNoticeKey, NOTICE_KEYS } from '@platform/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n.ts';
import { loadLanguage } from '../../i18n/locale-loader.ts';
import { noticeText } from './notice-text.ts';

const stored = { title: 'Stored title', message: 'Stored message' };
const order = { pair: 'BTC_USD', base: 'BTC', quote: 'USD', side: 'buy', type: 'limit', filled: '0.0000000' };

describe('notice texts (docs/i18n.md "Server texts")', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('has a title and a message for every key the server stores', () => {
    for (const key of NOTICE_KEYS) {
      expect(i18n.exists(`notices.${key}.title`), key).toBe(true);
      // An order's message is built from notices.order.* parts (orderMessage); some messages are plurals.
      if (!isOrderNoticeKey(key)) expect(i18n.exists(`notices.${key}.message`, { count: 2 }), key).toBe(true);
    }
  });

  it('writes English as the server does, amounts at their currency precision', () => {
    const placed = {
      ...stored,
      textKey: 'orderPlaced',
      params: { ...order, quantity: '0.5000000', price: '67250.00' },
    };
    expect(noticeText(placed)).toEqual({ title: 'Order placed', message: 'Buy 0.5 BTC at 67,250.00 USD' });
    const filled = {
      ...stored,
      textKey: 'orderFilled',
      params: { ...order, side: 'sell', quantity: '0.5', filled: '0.5000000', averagePrice: '67250.00' },
    };
    expect(noticeText(filled).message).toBe('Sold 0.5 BTC at 67,250.00 USD');
    const market = { ...stored, textKey: 'orderExpired', params: { ...order, quoteAmount: '100' } };
    expect(noticeText(market).message).toBe('Buy BTC for 100.00 USD at market: nothing could be filled');
    const stop = {
      ...stored,
      textKey: 'orderRejected',
      params: { ...order, quantity: '1', price: '66000', stopPrice: '66100', reason: 'price_outside_band' },
    };
    expect(noticeText(stop).message).toBe(
      'Buy 1 BTC at 66,000.00 USD, stop 66,100.00 USD was rejected: the price is too far from the market price',
    );
    const deposit = { ...stored, textKey: 'depositConfirmed', params: { amount: '0.50000000', currency: 'BTC' } };
    expect(noticeText(deposit)).toEqual({
      title: 'Deposit confirmed',
      message: 'Your deposit of 0.5 BTC is confirmed and available',
    });
  });

  it('counts with plural forms and says the provider refused when the server gave no reason', () => {
    expect(noticeText({ ...stored, textKey: 'payoutSubmitted', params: { count: 1 } }).message).toBe(
      'Payout of 1 withdrawal submitted',
    );
    expect(noticeText({ ...stored, textKey: 'payoutSubmitted', params: { count: 3 } }).message).toBe(
      'Payout of 3 withdrawals submitted',
    );
    const failed = { amount: '1.5', currency: 'ETH', total: '1.502', address: '0x1234567890abcdef' };
    expect(noticeText({ ...stored, textKey: 'withdrawalFailed', params: failed }).message).toBe(
      'Withdrawal of 1.5 ETH failed: refused by the payment provider. 1.502 ETH is back in your balance.',
    );
  });

  it('shows the stored words for a notification without a key, with an unknown key or a hostile one', () => {
    expect(noticeText({ ...stored, textKey: null })).toEqual(stored);
    expect(noticeText({ ...stored })).toEqual(stored);
    for (const textKey of ['noSuchNotice', '__proto__', 'orderPlaced.title', 'x'.repeat(10_000), 'a\u0000b']) {
      expect(noticeText({ ...stored, textKey, params: {} })).toEqual(stored);
    }
  });

  it('writes German from the German texts, sides translated and the values formatted', async () => {
    await loadLanguage('de');
    await i18n.changeLanguage('de');
    const placed = { ...stored, textKey: 'orderPlaced', params: { ...order, quantity: '0.5', price: '67250' } };
    expect(noticeText(placed).title).toBe('Order platziert');
    expect(noticeText(placed).message).toMatch(/^Kauf 0[.,]5 BTC zu 67[.,]250[.,]00 USD$/);
    const liquidated = {
      ...stored,
      textKey: 'positionLiquidated',
      params: { pair: 'BTC-PERP', base: 'BTC', side: 'long', size: '0.1', price: '60000' },
    };
    expect(noticeText(liquidated).message).toContain('BTC-PERP-Long-Position');
    const cross = { ...stored, textKey: 'marginCallCross', params: { ratio: '85' } };
    expect(noticeText(cross).message).toContain('85 %');
  });
});
