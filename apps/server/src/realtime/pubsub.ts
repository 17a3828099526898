/**
 * Messages between the parts of the server (price feed -> socket gateway, later engine ->
 * gateway). In one process it is a map of listeners; across nodes the same interface is served
 * by NATS or Redis (ARCHITECTURE.md, scale-out path).
 */
export interface PubSub {
  /**
   * Delivers the message to every listener of the topic. With `retain`, the message is also kept
   * as the topic's latest, so that a late subscriber can start from a snapshot (like an MQTT
   * retained message or a NATS KV entry).
   */
  publish(topic: string, message: unknown, options?: PublishOptions): void;
  /** Returns the unsubscribe function. */
  subscribe(topic: string, listener: (message: unknown) => void): () => void;
  /** The last message published on the topic with `retain`, if any. */
  latest(topic: string): unknown | undefined;
  /**
   * Replaces the topic's retained message without delivering it: a channel whose live messages are
   * deltas keeps a full snapshot for late subscribers this way.
   */
  retain(topic: string, message: unknown): void;
  /** Whether anyone listens on the topic here (lets a publisher skip work nobody would see). */
  hasSubscribers(topic: string): boolean;
}

export type PublishOptions = { retain?: boolean };

export class InProcessPubSub implements PubSub {
  private readonly listeners = new Map<string, Set<(message: unknown) => void>>();
  // One entry per retained topic: the topics are per market and channel kind, so this stays as
  // small as the list of trading pairs.
  private readonly retained = new Map<string, unknown>();

  publish(topic: string, message: unknown, options: PublishOptions = {}): void {
    if (options.retain) this.retained.set(topic, message);
    for (const listener of this.listeners.get(topic) ?? []) listener(message);
  }

  subscribe(topic: string, listener: (message: unknown) => void): () => void {
    let set = this.listeners.get(topic);
    if (!set) {
      set = new Set();
      this.listeners.set(topic, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(topic) === set) this.listeners.delete(topic);
    };
  }

  latest(topic: string): unknown | undefined {
    return this.retained.get(topic);
  }

  retain(topic: string, message: unknown): void {
    this.retained.set(topic, message);
  }

  hasSubscribers(topic: string): boolean {
    return (this.listeners.get(topic)?.size ?? 0) > 0;
  }
}
