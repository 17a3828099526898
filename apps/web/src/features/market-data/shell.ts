import { getMarketData } from './market-data.ts';

/**
 * The market data's door for the page's entry (main.tsx). It is apart from index.ts because the
 * entry's static imports go into the shell chunk: importing index.ts there would carry every
 * hook and feed of the screens into the shell (10 KB gzip more, bench/README.md "shell").
 */

/** Opens the product socket ahead of the router, for a page that will show live data at once. */
export function connectMarketSocket(): void {
  getMarketData().socket.connect();
}
