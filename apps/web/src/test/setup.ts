import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, vi } from 'vitest';
import { FakeWebSocket } from '../features/market-data/fake-web-socket.ts';
import { replaceMarketData } from '../features/market-data/market-data.ts';
import { resetLocalWatchlistCache } from '../features/watchlist/local-watchlist.ts';
import '../i18n/i18n.ts';
import { useAppStore } from '../state/app-store.ts';

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
  localStorage.clear();
  sessionStorage.clear();
});
