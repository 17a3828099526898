/**
 * The test door of the market data (index.ts is the product's): a fake socket and a way to swap the
 * page's one socket and price store, for tests of screens that show streamed data.
 */

export { FakeWebSocket, FakeWebSocketServer } from './fake-web-socket.ts';
export { createMarketData, replaceMarketData } from './market-data.ts';
