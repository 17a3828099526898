import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, vi } from 'vitest';
import { FakeWebSocket, replaceMarketData } from '../features/market-data/testing.ts';
import { resetLocalWatchlistCache } from '../features/watchlist/local-watchlist.ts';
import '../i18n/i18n.ts';
import { undoAllCancels } from '../features/orders/pending-cancels.ts';
import { englishParts } from '../i18n/english-parts.ts';
import { addScreenTexts } from '../i18n/screen-texts.ts';
import { screenParts } from '../i18n/text-parts.ts';
import { useAppStore } from '../state/app-store.ts';
import { usePreferences } from '../state/preferences-store.ts';

// findBy and waitFor wait up to 5 s (the default is 1 s): screens, modals and toasts are lazy chunks,
// and on React's development build on a shared 2-core machine their first load can pass 1 s.
configure({ asyncUtilTimeout: 5_000 });

// Component tests render screens' parts without their route modules: every text is there.
addScreenTexts(
  Object.fromEntries(screenParts.filter((part) => part !== 'analytics').map((part) => [part, englishParts[part]])),
);

// jsdom has no matchMedia; react-hot-toast asks it about reduced motion. Every query is false.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// jsdom draws no canvas, which the chart library needs: every page that shows a chart gets a chart
// that draws nothing (price-chart.test.tsx mocks it with its own spies).
vi.mock('lightweight-charts', () => {
  const series = () => ({ setData: () => {}, update: () => {}, applyOptions: () => {} });
  return {
    ColorType: { Solid: 'solid' },
    TickMarkType: { Year: 0, Month: 1, DayOfMonth: 2, Time: 3, TimeWithSeconds: 4 },
    CandlestickSeries: 'Candlestick',
    HistogramSeries: 'Histogram',
    LineSeries: 'Line',
    AreaSeries: 'Area',
    BaselineSeries: 'Baseline',
    createChart: () => ({
      addSeries: series,
      priceScale: () => ({ applyOptions: () => {} }),
      applyOptions: () => {},
      timeScale: () => ({ fitContent: () => {} }),
      subscribeCrosshairMove: () => {},
      unsubscribeCrosshairMove: () => {},
      remove: () => {},
    }),
  };
});

// Screens with market data open the product socket; in tests it is a fake that never connects
// unless a test drives it (tests of the socket pass their own factory).
globalThis.WebSocket = FakeWebSocket as unknown as typeof WebSocket;

afterEach(() => {
  cleanup();
  replaceMarketData(null);
  resetLocalWatchlistCache();
  toast.remove();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  useAppStore.setState(useAppStore.getInitialState(), true);
  usePreferences.setState(usePreferences.getInitialState(), true);
  undoAllCancels();
  localStorage.clear();
  sessionStorage.clear();
});
