import { invariant } from '../lib/invariant.ts';

/**
 * PostgreSQL numbers at most 65,535 bind parameters per statement (a 16-bit count in the protocol);
 * a statement that needs more is a bug in the part that builds it (parts pass arrays, not rows).
 */
export const MAX_STATEMENT_PARAMETERS = 65_535;

/**
 * One SQL statement assembled from parts: each part adds its common table expressions under their
 * names and its values through param(), which numbers the placeholders. No part counts positions or
 * knows what another part declared, so a module adds its rows to a ledger statement without knowing
 * the ledger's CTEs (it only waits on the gate the ledger hands out).
 */
export class Statement {
  private readonly values: unknown[] = [];
  private readonly paramNames = new Set<string>();
  private readonly cteNames = new Set<string>();
  private readonly ctes: string[] = [];

  /**
   * The placeholder for a value (`$7`, or `$7::text[]` with a cast). Names document the statement
   * and catch a part that adds the same value twice; they must be unique within the statement.
   */
  param(name: string, value: unknown, cast?: string): string {
    invariant(!this.paramNames.has(name), `statement: parameter ${name} given twice`);
    invariant(this.values.length < MAX_STATEMENT_PARAMETERS, 'statement: too many parameters');
    this.paramNames.add(name);
    this.values.push(value);
    const placeholder = `$${this.values.length}`;
    return cast === undefined ? placeholder : `${placeholder}::${cast}`;
  }

  /** Declares a CTE; later CTEs and the final SELECT may read it. A name declared twice is a bug. */
  cte(name: string, body: string, options: { materialized?: boolean } = {}): void {
    invariant(/^[a-z_][a-z0-9_]*$/.test(name), `statement: bad CTE name ${name}`);
    invariant(!this.cteNames.has(name), `statement: CTE ${name} declared twice`);
    this.cteNames.add(name);
    this.ctes.push(`${name} AS ${options.materialized ? 'MATERIALIZED ' : ''}(${body})`);
  }

  has(cteName: string): boolean {
    return this.cteNames.has(cteName);
  }

  /** The statement's text, ending with `select`, and its parameters in placeholder order. */
  build(select: string): { sql: string; params: unknown[] } {
    const sql = this.ctes.length === 0 ? select : `WITH ${this.ctes.join(',\n')}\n${select}`;
    return { sql, params: [...this.values] };
  }
}
