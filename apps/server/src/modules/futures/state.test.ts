import { describe, expect, it } from 'vitest';
import { AccountIndexed } from './state.ts';

type Row = { accountId: string; name: string };

describe('AccountIndexed', () => {
  it("keeps each account's values in the map's own order through set, re-set, delete and clear", () => {
    const map = new AccountIndexed<Row>();
    map.set('a1', { accountId: 'A', name: 'a1' });
    map.set('b1', { accountId: 'B', name: 'b1' });
    map.set('a2', { accountId: 'A', name: 'a2' });
    map.set('a1', { accountId: 'A', name: 'a1 again' });
    expect(map.ofAccount('A').map((r) => r.name)).toEqual(['a1 again', 'a2']);
    map.delete('a1');
    map.set('a1', { accountId: 'A', name: 'a1 back' });
    expect(map.ofAccount('A').map((r) => r.name)).toEqual(['a2', 'a1 back']);
    expect([...map.values()].filter((r) => r.accountId === 'A').map((r) => r.name)).toEqual(['a2', 'a1 back']);
    // A key that moves to another account (never done by the exchange) leaves the first list, joins the other's end.
    map.set('b1', { accountId: 'A', name: 'moved' });
    expect(map.ofAccount('B')).toEqual([]);
    expect(map.ofAccount('A').map((r) => r.name)).toEqual(['a2', 'a1 back', 'moved']);
    expect(map.delete('missing')).toBe(false);
    map.clear();
    expect(map.ofAccount('A')).toEqual([]);
    expect(map.size).toBe(0);
  });
});
