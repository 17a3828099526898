import { WatchlistScreen } from '../features/watchlist/watchlist-screen.tsx';

export function Component() {
  return <WatchlistScreen />;
}
