import {
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
  /** Pair id, BASE_QUOTE upper case. */
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

const MARKET_CHANNEL_PATTERN = /^(price|orderbook|trades)\.(.+)$/;

/** Parses a client's channel name; undefined when it is not one of ours. */
export function parseChannel(raw: string): Channel | undefined {
  const user = userChannelNamed(raw);
  if (user !== undefined) return { scope: 'user', name: user, updateType: socketUpdateTypeByUserChannel[user] };
  const match = MARKET_CHANNEL_PATTERN.exec(raw);
  // Pair ids are BASE_QUOTE; clients that think in display symbols send BASE/QUOTE, and either case.
  const market = match?.[2] === undefined ? null : normalizePairId(match[2]);
  if (!match || market === null) return undefined;
  const kind = match[1] as SocketChannelKind;
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
 * `account.{accountId}.{orders|balances|notifications}`. The trading module publishes on the same
 * strings (its accountOrdersTopic and accountBalancesTopic); they are spelled out here rather than
 * imported because modules/trading/index.ts pulls in the whole exchange core, which the socket
 * gateway has no business loading.
 */
export function accountTopic(accountId: string, channel: SocketUserChannel): string {
  return `account.${accountId}.${channel}`;
}

/** The topic whose retained message proves that the server knows a market. */
export function priceTopic(market: string): string {
  return `price.${market}`;
}
