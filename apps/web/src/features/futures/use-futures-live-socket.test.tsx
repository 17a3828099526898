import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch-mock.ts';
import { createMarketData, FakeWebSocketServer, replaceMarketData } from '../market-data/testing.ts';
import { futuresRoutes, signIn } from './futures-test-fixtures.ts';
import { useFuturesLive } from './use-futures-live.ts';

function Live({ market }: { market: string }) {
  useFuturesLive(market);
  return null;
}

describe('futures socket channels', () => {
  it('subscribes mark.{MARKET} and, signed in, the positions and futures_orders user channels', () => {
    const server = new FakeWebSocketServer();
    const marketData = createMarketData({ createSocket: server.create, url: () => 'ws://test/ws' });
    replaceMarketData(marketData);
    marketData.socket.connect();
    stubFetch(futuresRoutes());
    signIn();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <Live market="BTC_USD_PERP" />
      </QueryClientProvider>,
    );
    act(() => server.latest.acceptOpen());
    const channels = server.latest.sentOfType('subscribe').map((message) => (message as { channel: string }).channel);
    expect(channels).toEqual(expect.arrayContaining(['mark.BTC_USD_PERP', 'positions', 'futures_orders']));
  });
});
