import { describe, expect, it } from 'vitest';
import { routeCost } from './fair-use-weights.ts';

describe('fair-use weights of the whole-history routes', () => {
  it('the lot engine routes weigh more than a page, each with a reason', () => {
    for (const [url, weight] of [
      ['/v1/portfolio/lots', 10],
      ['/v1/portfolio/realised', 20],
      ['/v1/portfolio/tax-report.csv', 20],
      ['/v1/analytics', 20],
      ['/v1/exports/trades.csv', 20],
    ] as const) {
      const cost = routeCost('GET', url);
      expect(cost?.weight, url).toBe(weight);
      expect(cost?.reason.length, url).toBeGreaterThan(20);
      expect(routeCost('HEAD', url)?.weight, url).toBe(weight);
    }
  });
});
