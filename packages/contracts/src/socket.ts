import { z } from 'zod';
import { futuresOrderSchema, markPriceSchema, positionUpdateSchema } from './futures.ts';
import { priceUpdateSchema } from './markets.ts';
import { notificationSchema } from './notifications.ts';
import { balanceUpdateSchema, orderBookUpdateSchema, orderSchema, tradeSchema } from './trading.ts';

// ---------------------------------------------------------------------------------------------
// Product socket (spec §7.6). Versioned: a client sends `version` in nothing; the server says it
// in the welcome message so old clients can tell. This file imports the payload schemas of
// markets.ts and trading.ts; it lives apart from them because trading.ts itself imports
// markets.ts, and markets.ts importing trading.ts back would be a cycle.
// ---------------------------------------------------------------------------------------------

export const SOCKET_PROTOCOL_VERSION = 1;
export const SOCKET_PATH = '/ws';

/*
 * Protocol in short. The server greets with {type:'welcome', version}. {type:'subscribe', channel}
 * is answered {type:'subscribed', channel, seq:0}, then, when the channel has a retained message
 * (always for price channels; the full book for orderbook channels), a snapshot: {type:
 * 'price_update', channel, seq:1, snapshot:true, payload}. Every later event on the channel takes
 * the next seq, per connection and channel: a client that sees a jump has missed something and
 * subscribes again, which sends a new 'subscribed' and a new snapshot with the sequence going on.
 * Order book events after the snapshot are deltas (payload.kind 'delta'). Unsubscribing ends the
 * sequence; a later subscription starts again at 0. {type:'ping'} is answered {type:'pong',
 * timestamp}; the server also sends protocol ping frames every SOCKET_PING_INTERVAL_MS and closes
 * sockets that do not answer them.
 *
 * User channels (orders, balances, notifications, positions, futures_orders) carry one account's events and need an
 * authenticated connection: an access token as `?token=` when connecting, or {type:'auth', token}
 * at any time, answered {type:'authenticated', account_id}. They have no snapshot: the client
 * loads the current state over HTTP after 'subscribed'. Authenticating as another account drops
 * the user channels held for the previous one (each answered 'unsubscribed').
 */

/**
 * The market channel kinds of spec §7.6; a channel is `{kind}.{PAIR_ID}` (BTC/USD is accepted, BTC_USD
 * answered). Perpetual futures markets (`BTC_USD_PERP`) have `orderbook`, `trades` and `mark` (mark
 * price, index price and the predicted funding rate, retained: a subscriber gets the latest at once);
 * `price` is for spot pairs and `mark` for perpetuals only.
 */
export const socketChannelKinds = ['price', 'orderbook', 'trades', 'mark'] as const;
export type SocketChannelKind = (typeof socketChannelKinds)[number];

export const socketChannelSchema = z
  .string()
  .regex(
    /^((price|orderbook|trades)\.[A-Z0-9]{2,12}[_/][A-Z0-9]{2,12}|(orderbook|trades|mark)\.[A-Z0-9]{2,12}_USD_PERP)$/,
    {
      error: 'Unknown channel',
    },
  );

/** The server message type that carries a market channel's events (spec §7.6 incoming types). */
export const socketUpdateTypeByChannelKind = {
  price: 'price_update',
  orderbook: 'orderbook_update',
  trades: 'trade_update',
  mark: 'mark_update',
} as const satisfies Record<SocketChannelKind, string>;

/**
 * The signed-in account's own channels; their names carry no account id (the connection's is used).
 * `positions` and `futures_orders` carry the futures side: a position (with the futures account's
 * margin figures) after a fill, funding, liquidation, ADL or a margin change, and a futures order's
 * every change.
 */
export const socketUserChannels = ['orders', 'balances', 'notifications', 'positions', 'futures_orders'] as const;
export type SocketUserChannel = (typeof socketUserChannels)[number];

export const socketUpdateTypeByUserChannel = {
  orders: 'order_update',
  balances: 'balance_update',
  notifications: 'notification_update',
  positions: 'position_update',
  futures_orders: 'futures_order_update',
} as const satisfies Record<SocketUserChannel, string>;

/** Other names accepted for the user channels (the update type, as some clients subscribe by it). */
export const socketUserChannelAliases: Readonly<Record<string, SocketUserChannel>> = {
  order_update: 'orders',
  balance_update: 'balances',
  notification_update: 'notifications',
  position_update: 'positions',
  futures_order_update: 'futures_orders',
};

export const clientSocketMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribe'), channel: z.string() }),
  z.object({ type: z.literal('unsubscribe'), channel: z.string() }),
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('auth'), token: z.string().min(1).max(4096) }),
]);
export type ClientSocketMessage = z.infer<typeof clientSocketMessageSchema>;

/** A channel event: the channel's update type, its sequence number, and the payload. */
function channelEvent<const Type extends string, Payload extends z.ZodType>(type: Type, payload: Payload) {
  return z.object({
    type: z.literal(type),
    channel: z.string(),
    seq: z.number().int(),
    snapshot: z.boolean().optional(),
    payload,
  });
}

/** Every server message: type, channel, payload, and a per-channel sequence number. */
export const serverSocketMessageSchema = z.discriminatedUnion('type', [
  channelEvent('price_update', priceUpdateSchema),
  channelEvent('orderbook_update', orderBookUpdateSchema),
  channelEvent('trade_update', tradeSchema),
  channelEvent('order_update', orderSchema),
  channelEvent('balance_update', balanceUpdateSchema),
  channelEvent('notification_update', notificationSchema),
  channelEvent('mark_update', markPriceSchema),
  channelEvent('position_update', positionUpdateSchema),
  channelEvent('futures_order_update', futuresOrderSchema),
  z.object({ type: z.literal('subscribed'), channel: z.string(), seq: z.number().int() }),
  z.object({ type: z.literal('unsubscribed'), channel: z.string() }),
  z.object({ type: z.literal('authenticated'), account_id: z.string().uuid() }),
  z.object({ type: z.literal('pong'), timestamp: z.number().int() }),
  z.object({ type: z.literal('welcome'), version: z.number().int() }),
  z.object({
    type: z.literal('error'),
    channel: z.string().optional(),
    payload: z.object({ code: z.string(), message: z.string() }),
  }),
]);
export type ServerSocketMessage = z.infer<typeof serverSocketMessageSchema>;

/**
 * Codes of socket `error` messages. None of them closes the connection.
 * - INVALID_JSON: the text was not JSON. INVALID_MESSAGE: JSON, but not a client message (unknown
 *   type, missing channel, binary frame).
 * - UNKNOWN_CHANNEL: malformed channel, or a market the server has no price for.
 * - UNAUTHORIZED: a user channel on a connection that has not authenticated, or a token that is
 *   invalid or expired (the connection keeps the identity it had, if any).
 * - TOO_MANY_SUBSCRIPTIONS: the connection already holds the maximum number of channels.
 * - RATE_LIMITED: too many client messages in the current window; the extra ones are ignored.
 */
export const socketErrorCodes = [
  'INVALID_JSON',
  'INVALID_MESSAGE',
  'UNKNOWN_CHANNEL',
  'UNAUTHORIZED',
  'TOO_MANY_SUBSCRIPTIONS',
  'RATE_LIMITED',
] as const;
export type SocketErrorCode = (typeof socketErrorCodes)[number];

/**
 * Close codes the server uses besides 1000. 1009: a client message was larger than the limit.
 * 1013 (try again later): the send buffer overflowed (slow consumer), or the server or the
 * client's address has too many connections.
 */
export const SOCKET_CLOSE_CODES = {
  messageTooBig: 1009,
  tryAgainLater: 1013,
} as const;

/** GET /ws/stats (spec §7.2): the gateway of the node that answers. */
export const socketStatsSchema = z.object({
  connections: z.number().int().describe('Open sockets'),
  subscriptions: z.number().int().describe('Channel subscriptions summed over the sockets'),
  channels: z.number().int().describe('Distinct channels with at least one subscriber'),
});
export type SocketStats = z.infer<typeof socketStatsSchema>;
