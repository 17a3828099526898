import {
  FUTURES_MARKET_ID_PATTERN,
  normalizePairId,
  type SocketChannelKind,
  type SocketUserChannel,
  socketUpdateTypeByChannelKind,
  socketUpdateTypeByUserChannel,
  socketUserChannelAliases,
  socketUserChannels,
} from '@platform/contracts';

type UpdateType =
  | (typeof socketUpdateTypeByChannelKind)[SocketChannelKind]
  | (typeof socketUpdateTypeByUserChannel)[SocketUserChannel];

/** A public channel of one market: every connection's `price.BTC_USD` is the same topic. */
export type MarketChannel = {
  scope: 'market';
  /** The normalised name, also the pub/sub topic: `price.BTC_USD`. */
  name: string;
  kind: SocketChannelKind;
  /** Pair id, BASE_QUOTE upper case, or a perpetual's id, BASE_USD_PERP. */
  market: string;
  /** The server message type of this channel's events. */
  updateType: UpdateType;
};

/** A channel of the connection's own account: `orders` names a different topic per account. */
export type UserChannel = {
  scope: 'user';
  name: SocketUserChannel;
  updateType: UpdateType;
};

export type Channel = MarketChannel | UserChannel;

const MARKET_CHANNEL_PATTERN = /^(price|orderbook|trades|mark)\.(.+)$/;
/** The kinds a spot pair and a perpetual market each have: `price` is spot's, `mark` the perpetuals'. */
const SPOT_KINDS: ReadonlySet<SocketChannelKind> = new Set(['price', 'orderbook', 'trades']);
const PERP_KINDS: ReadonlySet<SocketChannelKind> = new Set(['orderbook', 'trades', 'mark']);

/** A perpetual's id in any case (`btc_usd_perp`), upper case; null when it is not one. */
export function perpMarketId(raw: string): string | null {
  const upper = raw.trim().toUpperCase();
  return FUTURES_MARKET_ID_PATTERN.test(upper) ? upper : null;
}

/** Parses a client's channel name; undefined when it is not one of ours. */
export function parseChannel(raw: string): Channel | undefined {
  const user = userChannelNamed(raw);
  if (user !== undefined) return { scope: 'user', name: user, updateType: socketUpdateTypeByUserChannel[user] };
  const match = MARKET_CHANNEL_PATTERN.exec(raw);
  if (!match || match[2] === undefined) return undefined;
  const kind = match[1] as SocketChannelKind;
  // Pair ids are BASE_QUOTE; clients that think in display symbols send BASE/QUOTE, and either case.
  // Perpetuals are BASE_USD_PERP.
  const perp = perpMarketId(match[2]);
  const market = perp ?? normalizePairId(match[2]);
  if (market === null || !(perp === null ? SPOT_KINDS : PERP_KINDS).has(kind)) return undefined;
  return {
    scope: 'market',
    name: `${kind}.${market}`,
    kind,
    market,
    updateType: socketUpdateTypeByChannelKind[kind],
  };
}

function userChannelNamed(raw: string): SocketUserChannel | undefined {
  if ((socketUserChannels as readonly string[]).includes(raw)) return raw as SocketUserChannel;
  return Object.hasOwn(socketUserChannelAliases, raw) ? socketUserChannelAliases[raw] : undefined;
}

/** The pub/sub topic a connection listens on for a channel: a user channel's is its account's. */
export function channelTopic(channel: Channel, accountId: string): string {
  return channel.scope === 'market' ? channel.name : accountTopic(accountId, channel.name);
}

/**
 * `account.{accountId}.{orders|balances|notifications|positions|futures_orders}`. The trading module
 * publishes on the same strings (its accountOrdersTopic and accountBalancesTopic), the futures
 * module on `account.{id}.positions` and `account.{id}.futures_orders`; they are spelled out here
 * rather than imported because the modules' index files pull in their whole exchange cores, which
 * the socket gateway has no business loading.
 */
export function accountTopic(accountId: string, channel: SocketUserChannel): string {
  return `account.${accountId}.${channel}`;
}

/** The topic whose retained message proves that the server knows a market. */
export function priceTopic(market: string): string {
  return `price.${market}`;
}

/** A perpetual's retained mark topic: once published, the server knows the market. */
export function markTopic(market: string): string {
  return `mark.${market}`;
}
