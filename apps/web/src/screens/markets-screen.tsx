import { MarketsScreen } from '../features/markets/markets-screen.tsx';

export function Component() {
  return <MarketsScreen />;
}
