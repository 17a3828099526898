import { normalizePairId, type SocketChannelKind, socketUpdateTypeByChannelKind } from '@platform/contracts';

export type Channel = {
  /** The normalised name, also the pub/sub topic: `price.BTC_USD`. */
  name: string;
  kind: SocketChannelKind;
  /** Pair id, BASE_QUOTE upper case. */
  market: string;
  /** The server message type of this channel's events. */
  updateType: (typeof socketUpdateTypeByChannelKind)[SocketChannelKind];
};

const CHANNEL_PATTERN = /^(price|orderbook|trades)\.(.+)$/;

/** Parses a client's channel name; undefined when it is not one of ours. */
export function parseChannel(raw: string): Channel | undefined {
  const match = CHANNEL_PATTERN.exec(raw);
  // Pair ids are BASE_QUOTE; clients that think in display symbols send BASE/QUOTE, and either case.
  const market = match?.[2] === undefined ? null : normalizePairId(match[2]);
  if (!match || market === null) return undefined;
  const kind = match[1] as SocketChannelKind;
  return { name: `${kind}.${market}`, kind, market, updateType: socketUpdateTypeByChannelKind[kind] };
}

/** The topic whose retained message proves that the server knows a market. */
export function priceTopic(market: string): string {
  return `price.${market}`;
}
