import type { Database, QueryResult, Row } from '../db/database.ts';

/**
 * The database with its next query held after it ran (its result read, not yet handed back) until
 * the test lets it go: a read that straddles a change, on demand.
 */
export function heldAfterNextQuery(db: Database) {
  let hold: Promise<void> | null = null;
  let release = () => {};
  const query = async <T extends Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> => {
    // Claimed when the query starts, not when it ends: the read under test starts first, and on
    // PostgreSQL a write begun after it can finish before it (PGlite runs one query at a time).
    const held = hold;
    hold = null;
    const result = await db.query<T>(sql, params);
    if (held) await held;
    return result;
  };
  const proxy = new Proxy(db, {
    get(target, property) {
      if (property === 'query') return query;
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    db: proxy,
    holdNext: () => {
      hold = new Promise<void>((resolve) => {
        release = resolve;
      });
    },
    release: () => release(),
  };
}
