import type { Queryable } from '../../db/database.ts';
import { Batch } from './batch.ts';
import { type CommandKind, type CommandPayloads, decideCommand, isCommandKind } from './commands.ts';
import { type CommandInputs, ReplayDivergence, replayContext, revive, runCommand } from './journal.ts';
import { loadState } from './load.ts';
import type { FuturesMarketSpec } from './markets.ts';
import { FuturesState } from './state.ts';
import { futuresStateHash, futuresStateLines } from './state-hash.ts';

type JournalRow = { sequence: string; kind: string; payload: unknown; inputs: unknown };

/** Journal rows read per query. */
const PAGE = 2_000;

/**
 * Rebuilds the futures state from the journal alone: every command decided again, in sequence,
 * by the same functions as live (commands.ts), with the clock, marks and ids it recorded, and the
 * commands of one live batch in one batch again. Wallets start empty: only the exchange moves
 * futures wallets (and the insurance fund), so the journal holds every movement. Throws
 * ReplayDivergence when a command does not decide as it did live.
 */
export async function replayJournal(
  db: Queryable,
  markets: ReadonlyMap<string, FuturesMarketSpec>,
  bandBps: number,
): Promise<FuturesState> {
  const state = new FuturesState(markets, bandBps, true);
  let batch = new Batch();
  let batchId: number | null = null;
  let after = '0';
  for (;;) {
    const page = await db.query<JournalRow>(
      `SELECT sequence::text AS sequence, kind, payload, inputs FROM futures_journal
       WHERE futures_journal.sequence > $1::bigint ORDER BY futures_journal.sequence LIMIT ${PAGE}`,
      [after],
    );
    for (const row of page.rows) {
      const inputs = parsed(row.inputs) as CommandInputs | null;
      if (!inputs)
        throw new ReplayDivergence(
          `journal row ${row.sequence} has no recorded inputs (written before they were kept)`,
        );
      if (inputs.batch !== batchId) {
        batch = new Batch();
        batchId = inputs.batch;
      }
      replayOne(state, batch, bandBps, row, inputs);
    }
    if (page.rows.length < PAGE) return state;
    after = page.rows.at(-1)!.sequence;
  }
}

function replayOne(state: FuturesState, batch: Batch, bandBps: number, row: JournalRow, inputs: CommandInputs): void {
  const kind = row.kind;
  if (!isCommandKind(kind)) throw new ReplayDivergence(`journal row ${row.sequence} names an unknown command ${kind}`);
  const payload = parsed(row.payload) as CommandPayloads[CommandKind];
  state.sequence = Number(row.sequence) - 1;
  const { ctx, allIdsUsed } = replayContext({ state, batch, bandBps, nextSequence: () => ++state.sequence }, inputs);
  const { result } = runCommand(ctx, (c) => decideCommand(c, kind, payload));
  if (!result.ok) {
    throw new ReplayDivergence(
      `command ${row.sequence} (${kind}) was accepted live but refused in the replay: ${result.code}`,
    );
  }
  if (!allIdsUsed()) throw new ReplayDivergence(`command ${row.sequence} (${kind}) generated fewer ids in the replay`);
}

const parsed = (value: unknown) => (typeof value === 'string' ? revive(JSON.parse(value)) : revive(value));

export type ReplayCheck = { equal: boolean; stored: string; replayed: string; differences: string[] };

/**
 * Compares what a restart would load (the rows: loadState) with a clean replay of the journal, in
 * one repeatable-read snapshot when `db` can open one (a batch writes its rows and journal rows in
 * one transaction, so any snapshot is a consistent pair). `differences`: the first lines that
 * differ (- stored, + replayed).
 */
export async function checkReplay(
  db: Queryable,
  markets: ReadonlyMap<string, FuturesMarketSpec>,
  bandBps: number,
): Promise<ReplayCheck> {
  const stored = new FuturesState(markets, bandBps);
  await loadState(db, stored);
  // A restart reads a wallet when its account next acts; the comparison needs every one now.
  const wallets = await db.query<{ account_id: string }>(
    `SELECT DISTINCT account_id::text AS account_id FROM ledger_accounts WHERE owner_kind = 'futures'`,
  );
  await stored.loadWallets(
    db,
    wallets.rows.map((row) => row.account_id),
  );
  const replayed = await replayJournal(db, markets, bandBps);
  const storedHash = futuresStateHash(stored);
  const replayedHash = futuresStateHash(replayed);
  return {
    equal: storedHash === replayedHash,
    stored: storedHash,
    replayed: replayedHash,
    differences: storedHash === replayedHash ? [] : diff(futuresStateLines(stored), futuresStateLines(replayed)),
  };
}

function diff(stored: string[], replayed: string[], limit = 20): string[] {
  const a = new Set(stored);
  const b = new Set(replayed);
  return [
    ...stored.filter((line) => !b.has(line)).map((line) => `- ${line}`),
    ...replayed.filter((line) => !a.has(line)).map((line) => `+ ${line}`),
  ].slice(0, limit);
}
