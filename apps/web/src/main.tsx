import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { connectMarketSocket } from './features/market-data/shell.ts';
import { currentLanguage } from './i18n/i18n.ts';
import { loadLanguage } from './i18n/locale-loader.ts';
import { moduleForPath, prefetchPath } from './routes/route-modules.ts';
import { useAppStore } from './state/app-store.ts';
import { applyTheme } from './theme/apply-theme.ts';
import './theme/global.css';

const rootElement = document.getElementById('root');
// Spec §8: a missing root element at start throws.
if (!rootElement) throw new Error('Root element #root is missing from index.html');

// Paint the saved theme before React renders, so the page never flashes the default one.
const state = useAppStore.getState();
applyTheme(state.theme);
// The detected language (saved choice, browser, page) becomes the state's language.
const detected = currentLanguage();
if (state.language !== detected) state.setLanguage(detected);

// The landing screen's code starts downloading now, alongside the shell's start, instead of after
// the router has rendered; the trade page also gets its socket opening while the rest loads, so
// its book subscribes on an open connection (bench/README.md: time to a live book).
prefetchPath(window.location.pathname);
if (moduleForPath(window.location.pathname) === 'trade') connectMarketSocket();

// The shell's texts in the detected language arrive before the first paint (English is bundled), so
// no one sees the page in a language they did not choose.
void loadLanguage(detected)
  .catch(() => undefined)
  .then(() => {
    createRoot(rootElement).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
