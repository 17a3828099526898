import { describe, expect, it } from 'vitest';
import { InProcessPubSub } from './pubsub.ts';

describe('InProcessPubSub', () => {
  it('delivers to the listeners of a topic until they unsubscribe', () => {
    const pubsub = new InProcessPubSub();
    const seen: unknown[] = [];
    const stop = pubsub.subscribe('price.BTC_USD', (message) => seen.push(message));
    pubsub.subscribe('price.ETH_USD', () => seen.push('wrong topic'));
    pubsub.publish('price.BTC_USD', 1);
    stop();
    pubsub.publish('price.BTC_USD', 2);
    expect(seen).toEqual([1]);
  });
});
