import { SOCKET_PING_INTERVAL_MS } from '@platform/contracts';

/**
 * Every limit of the socket gateway, with its reason (CONVENTIONS.md habit 4). A gateway takes
 * these by default; tests pass smaller ones.
 */
export type SocketLimits = {
  /**
   * Channels one connection may hold. The trading page needs three per market (price, order book,
   * trades) and a watchlist one price channel per pair; 200 covers both with room, while one
   * connection cannot make every publish fan out to thousands of its own subscriptions.
   */
  maxSubscriptionsPerConnection: number;
  /**
   * Channels all connections of one client address may hold together. Without it, an address's
   * 50 connections could hold 10,000 subscriptions, each one a send on every publish. A trading
   * page holds about 60 (three per market, a watchlist, the user channels): 2,000 is some 30 tabs.
   */
  maxSubscriptionsPerIp: number;
  /**
   * Largest client message. Client messages are a type and a channel name (well under 100
   * bytes); anything bigger is not our protocol and is refused by ws with close code 1009 before
   * it is buffered, let alone parsed.
   */
  maxMessageBytes: number;
  /**
   * Bytes queued for a client that does not read fast enough. Above this the client is dropped
   * (close 1013) instead of letting its queue grow without bound in server memory; it reconnects
   * and starts again from a snapshot. 1 MiB is thousands of price updates behind.
   */
  maxSendBufferBytes: number;
  /**
   * Open sockets per client address. A browser needs one per tab; this stops one address from
   * taking the whole server's share of sockets.
   */
  maxConnectionsPerIp: number;
  /**
   * Authenticated sockets per account, wherever they come from: a person's tabs and devices need a
   * handful; a leaked token or a script cannot hold thousands of sockets (each one a fan-out of
   * every user event) in one account's name from many addresses.
   */
  maxConnectionsPerAccount: number;
  /** Open sockets per server node, so that memory and file descriptors stay bounded. */
  maxConnections: number;
  /**
   * Client messages accepted per window per connection. A reconnecting client resubscribes all
   * its channels at once, so the budget allows a full resubscription burst; past it, messages
   * are ignored until the window ends.
   */
  maxClientMessagesPerWindow: number;
  clientMessageWindowMs: number;
  /**
   * Client frames kept while a token is being checked, to be handled in order once it is. A
   * check takes one HMAC, so a client that follows its auth with a resubscription burst fits with
   * room; the bound keeps a client that floods during the check from queueing without end.
   */
  maxFramesHeldDuringAuth: number;
  /**
   * Protocol ping period (spec §9: socket ping 30 s). A connection that has not answered the
   * previous ping by the next one is terminated: its peer is gone without a close.
   */
  heartbeatIntervalMs: number;
};

export const SOCKET_LIMITS: SocketLimits = {
  maxSubscriptionsPerConnection: 200,
  maxSubscriptionsPerIp: 2_000,
  maxMessageBytes: 4 * 1024,
  maxSendBufferBytes: 1024 * 1024,
  maxConnectionsPerIp: 50,
  maxConnectionsPerAccount: 20,
  maxConnections: 10_000,
  maxClientMessagesPerWindow: 1_000,
  clientMessageWindowMs: 10_000,
  maxFramesHeldDuringAuth: 256,
  heartbeatIntervalMs: SOCKET_PING_INTERVAL_MS,
};
