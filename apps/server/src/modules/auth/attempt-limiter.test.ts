import { describe, expect, it } from 'vitest';
import { AttemptLimiter } from './attempt-limiter.ts';

describe('AttemptLimiter', () => {
  const setup = () => {
    let now = 1_000_000;
    const limiter = new AttemptLimiter({ maxFailures: 3, windowMs: 60_000 }, () => new Date(now));
    return { limiter, advance: (ms: number) => (now += ms) };
  };

  it('refuses after the budget of failures, until the window ends', () => {
    const { limiter, advance } = setup();
    for (let i = 0; i < 3; i++) {
      expect(limiter.retryAfterSeconds('a')).toBe(0);
      limiter.recordFailure('a');
    }
    expect(limiter.retryAfterSeconds('a')).toBe(60);
    advance(59_500);
    expect(limiter.retryAfterSeconds('a')).toBe(1);
    advance(500);
    expect(limiter.retryAfterSeconds('a')).toBe(0);
  });

  it('keeps keys apart and forgets a key on reset', () => {
    const { limiter } = setup();
    for (let i = 0; i < 3; i++) limiter.recordFailure('a');
    expect(limiter.retryAfterSeconds('b')).toBe(0);
    limiter.reset('a');
    expect(limiter.retryAfterSeconds('a')).toBe(0);
  });
});
