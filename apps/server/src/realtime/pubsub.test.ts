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

describe('InProcessPubSub retained messages', () => {
  it('keeps the last retained message of a topic for late subscribers', () => {
    const pubsub = new InProcessPubSub();
    expect(pubsub.latest('price.BTC_USD')).toBeUndefined();
    pubsub.publish('price.BTC_USD', 1, { retain: true });
    pubsub.publish('price.BTC_USD', 2, { retain: true });
    // A message without retain is delivered but does not replace the retained one.
    pubsub.publish('price.BTC_USD', 3);
    expect(pubsub.latest('price.BTC_USD')).toBe(2);
    expect(pubsub.latest('price.ETH_USD')).toBeUndefined();
  });

  it('delivers retained messages to current listeners like any other', () => {
    const pubsub = new InProcessPubSub();
    const seen: unknown[] = [];
    pubsub.subscribe('trades.BTC_USD', (message) => seen.push(message));
    pubsub.publish('trades.BTC_USD', 'a', { retain: true });
    expect(seen).toEqual(['a']);
  });

  it('lets an old unsubscribe function run twice without removing newer listeners', () => {
    const pubsub = new InProcessPubSub();
    const seen: unknown[] = [];
    const stop = pubsub.subscribe('topic', () => seen.push('old'));
    stop();
    pubsub.subscribe('topic', (message) => seen.push(message));
    stop();
    pubsub.publish('topic', 'new');
    expect(seen).toEqual(['new']);
  });
});
