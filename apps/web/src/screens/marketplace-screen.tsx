import { PlaceholderScreen } from './placeholder-screen.tsx';

export function Component() {
  return <PlaceholderScreen page="marketplace" />;
}
