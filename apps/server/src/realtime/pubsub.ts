/**
 * Messages between the parts of the server (price feed -> socket gateway, later engine ->
 * gateway). In one process it is a map of listeners; across nodes the same interface is served
 * by NATS or Redis (ARCHITECTURE.md, scale-out path).
 */
export interface PubSub {
  publish(topic: string, message: unknown): void;
  /** Returns the unsubscribe function. */
  subscribe(topic: string, listener: (message: unknown) => void): () => void;
}

export class InProcessPubSub implements PubSub {
  private readonly listeners = new Map<string, Set<(message: unknown) => void>>();

  publish(topic: string, message: unknown): void {
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
      if (set.size === 0) this.listeners.delete(topic);
    };
  }
}
