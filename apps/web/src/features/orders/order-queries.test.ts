import { describe, expect, it } from 'vitest';
import { applyOrderUpdate } from './order-queries.ts';
import { makeOrder, orderList } from './orders-test-fixtures.ts';

describe('applyOrderUpdate (the open-orders list after an order_update)', () => {
  const first = makeOrder({ updated_at: '2026-11-24T10:00:00.000Z' });
  const second = makeOrder({ updated_at: '2026-11-24T10:00:00.000Z' });
  const list = orderList([first, second], 2);

  it('replaces a partly filled order in place', () => {
    const partial = {
      ...first,
      status: 'partial' as const,
      filled_quantity: '0.005',
      updated_at: '2026-11-24T10:00:01.000Z',
    };
    const next = applyOrderUpdate(list, partial);
    expect(next?.orders).toEqual([partial, second]);
    expect(next?.pagination.total).toBe(2);
  });

  it.each(['filled', 'cancelled', 'completed', 'expired', 'rejected'] as const)('removes an order now %s', (status) => {
    const next = applyOrderUpdate(list, { ...second, status, updated_at: '2026-11-24T10:00:02.000Z' });
    expect(next?.orders).toEqual([first]);
    expect(next?.pagination.total).toBe(1);
  });

  it('adds a new open order at the top', () => {
    const placed = makeOrder();
    const next = applyOrderUpdate(list, placed);
    expect(next?.orders.map((order) => order.id)).toEqual([placed.id, first.id, second.id]);
    expect(next?.pagination.total).toBe(3);
  });

  it('ignores a closed order it does not hold, and an update older than the one held', () => {
    expect(applyOrderUpdate(list, makeOrder({ status: 'filled' }))).toBe(list);
    expect(applyOrderUpdate(list, { ...first, status: 'cancelled', updated_at: '2026-11-24T09:59:59.000Z' })).toBe(
      list,
    );
  });

  it('leaves a list not loaded yet alone', () => {
    expect(applyOrderUpdate(undefined, first)).toBeUndefined();
  });
});
