import { randomBytes, randomUUID } from 'node:crypto';
import type { ChainDeposit, SandboxChainDepositRequest } from '@platform/contracts';
import { getAddress } from 'viem';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { invariant } from '../../lib/invariant.ts';
import { parseWalletAmount, trimAmount, unitsText } from '../wallet/rules.ts';
import { announceCredit, type Credit, creditInTransaction, isoOrNull, type PaymentsDeps } from './credit.ts';
import { depositRouteOf, ownerOfDestination } from './deposit-addresses.ts';
import type { NetworkSpec } from './networks.ts';
import { RepeatingPass } from './repeating-pass.ts';

/**
 * Deposits to our addresses: seen on chain with 0 confirmations, credited to the address's owner
 * once the network's confirmations are reached, never before, and once only.
 */

/** What a chain watcher knows about a transaction we saw. */
export interface SeenTransaction {
  network: string;
  txid: string;
  seenAt: Date;
  requiredConfirmations: number;
}

/**
 * Where confirmations come from. A real deployment puts a node or an indexer behind it; the
 * sandbox chain confirms every transaction at an even pace, reaching the required count
 * SANDBOX_CONFIRM_DELAY_MS after it was seen.
 */
export interface ChainWatcher {
  confirmations(transaction: SeenTransaction, now: Date): Promise<number>;
}

export class SandboxChain implements ChainWatcher {
  constructor(private readonly confirmDelayMs: number) {}

  async confirmations(transaction: SeenTransaction, now: Date): Promise<number> {
    const { requiredConfirmations: required } = transaction;
    if (this.confirmDelayMs <= 0) return required;
    const elapsedMs = Math.max(0, now.getTime() - transaction.seenAt.getTime());
    return Math.min(required, Math.floor((elapsedMs * required) / this.confirmDelayMs));
  }
}

type ChainDepositRow = {
  id: string;
  network: string;
  currency: string;
  txid: string;
  address: string;
  memo: string | null;
  amount: string;
  account_id: string | null;
  confirmations: number;
  required_confirmations: number;
  status: 'pending' | 'completed';
  seen_at: Date | string;
  completed_at: Date | string | null;
  created_at: Date | string;
};

const CHAIN_DEPOSIT_COLUMNS = `id, network, currency, txid, address, memo, amount::text AS amount, account_id, confirmations,
  required_confirmations, status, seen_at, completed_at, created_at`;

export function toChainDeposit(row: ChainDepositRow): ChainDeposit {
  return {
    id: row.id,
    txid: row.txid,
    currency: row.currency,
    network: row.network,
    address: row.address,
    memo: row.memo,
    amount: trimAmount(row.amount),
    confirmations: Number(row.confirmations),
    required_confirmations: Number(row.required_confirmations),
    status: row.status,
    attributed: row.account_id !== null,
    created_at: new Date(row.created_at).toISOString(),
    completed_at: isoOrNull(row.completed_at),
  };
}

/** Addresses as the table keeps them: EIP-55 for EVM chains, lower case for bech32 ones. */
export function normalizeAddress(spec: NetworkSpec, address: string): string {
  const text = address.trim();
  if (spec.family === 'evm' && /^0x[0-9a-fA-F]{40}$/.test(text)) return getAddress(text.toLowerCase());
  if (spec.family === 'bitcoin-cash') {
    const lower = text.toLowerCase();
    return lower.includes(':') ? lower : `bitcoincash:${lower}`;
  }
  if (/^(bc1|ltc1|cosmos1|sei1|addr1)/i.test(text)) return text.toLowerCase();
  return text;
}

/** A transaction id in the network's usual shape (0x-prefixed on EVM chains). */
function sandboxTxid(spec: NetworkSpec): string {
  const id = randomBytes(32).toString('hex');
  return spec.family === 'evm' ? `0x${id}` : id;
}

/**
 * POST /sandbox/chain/deposits: the outside world sends coins to an address. Recorded with 0
 * confirmations; attributed to the address's owner, or to nobody (logged) when no account owns
 * the address and memo.
 */
export async function recordSandboxDeposit(
  deps: PaymentsDeps,
  request: SandboxChainDepositRequest,
): Promise<Result<ChainDeposit>> {
  const found = depositRouteOf(request.currency, request.network);
  if (!found.ok) return found;
  const route = found.value;
  const units = parseWalletAmount(request.amount, route.currency);
  if (!units.ok) return units;
  const amount = unitsText(units.value, route.currency);
  const { spec } = route;
  const address = normalizeAddress(spec, request.address);
  const memo = spec.memoLabel ? request.memo?.trim() || null : null;
  const accountId = await ownerOfDestination(deps.db, spec.network, address, memo);
  const now = deps.clock();
  const inserted = await deps.db.query<ChainDepositRow>(
    `INSERT INTO chain_deposits (id, network, currency, txid, address, memo, amount, account_id, confirmations,
       required_confirmations, status, seen_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, $9, 'pending', $10, $10, $10)
     RETURNING ${CHAIN_DEPOSIT_COLUMNS}`,
    [
      randomUUID(),
      spec.network,
      route.currency,
      sandboxTxid(spec),
      address,
      memo,
      amount,
      accountId,
      route.requiredConfirmations,
      now,
    ],
  );
  const row = inserted.rows[0];
  invariant(row, 'chain deposit insert returned nothing');
  if (accountId === null) {
    deps.log.warn(
      { depositId: row.id, network: spec.network, address, memo, amount, currency: route.currency },
      'chain deposit to an address (or memo) nobody owns: recorded unattributed, credited to nobody',
    );
  }
  return ok(toChainDeposit(row));
}

/** A sandbox chain transaction by id (the sandbox's own view: no owner check). */
export async function chainDepositById(deps: PaymentsDeps, id: string): Promise<Result<ChainDeposit>> {
  const rows = await deps.db.query<ChainDepositRow>(
    `SELECT ${CHAIN_DEPOSIT_COLUMNS} FROM chain_deposits WHERE id = $1`,
    [id],
  );
  const row = rows.rows[0];
  return row ? ok(toChainDeposit(row)) : fail('NOT_FOUND', { message: 'No such sandbox transaction' });
}

/** Deposits looked at per pass; the rest wait for the next pass. */
export const CONFIRM_BATCH = 200;

/**
 * Follows pending chain deposits: raises their confirmation counts and credits each one whose
 * count reached its network's requirement. The credit and the status change commit together, and
 * the status update only takes a row still pending and not credited, so two confirmers (two
 * nodes) or a restart after a crash never credit one deposit twice.
 */
export class ChainConfirmer {
  private readonly passes: RepeatingPass;

  constructor(
    private readonly deps: PaymentsDeps,
    private readonly watcher: ChainWatcher,
    intervalMs: number,
  ) {
    this.passes = new RepeatingPass(
      () => this.pass(),
      intervalMs,
      (error) => deps.log.error({ err: error }, 'chain deposit confirmation pass failed'),
    );
  }

  start(): void {
    this.passes.start(0);
  }

  stop(): Promise<void> {
    return this.passes.stop();
  }

  /** One pass over the oldest pending deposits; answers how many were completed. */
  async pass(): Promise<number> {
    const { db, clock } = this.deps;
    const pending = await db.query<ChainDepositRow>(
      `SELECT ${CHAIN_DEPOSIT_COLUMNS} FROM chain_deposits WHERE status = 'pending' ORDER BY seen_at, id LIMIT $1`,
      [CONFIRM_BATCH],
    );
    const now = clock();
    const progressed: { id: string; confirmations: number }[] = [];
    const ready: ChainDepositRow[] = [];
    for (const row of pending.rows) {
      const confirmations = await this.watcher.confirmations(
        {
          network: row.network,
          txid: row.txid,
          seenAt: new Date(row.seen_at),
          requiredConfirmations: Number(row.required_confirmations),
        },
        now,
      );
      if (confirmations >= Number(row.required_confirmations)) ready.push(row);
      else if (confirmations > Number(row.confirmations)) progressed.push({ id: row.id, confirmations });
    }
    if (progressed.length > 0) {
      await db.query(
        `UPDATE chain_deposits d SET confirmations = p.confirmations, updated_at = $3
         FROM unnest($1::uuid[], $2::int[]) AS p (id, confirmations)
         WHERE d.id = p.id AND d.status = 'pending' AND d.confirmations < p.confirmations`,
        [progressed.map((row) => row.id), progressed.map((row) => row.confirmations), now],
      );
    }
    let completed = 0;
    for (const row of ready) if (await this.complete(row.id)) completed++;
    return completed;
  }

  /** Completes one deposit and credits its owner, in one transaction; false when another confirmer got there first. */
  private async complete(id: string): Promise<boolean> {
    const now = this.deps.clock();
    const result = await this.deps.db.transaction(async (tx) => {
      const updated = await tx.query<{ account_id: string | null; currency: string; amount: string }>(
        `UPDATE chain_deposits
         SET status = 'completed', confirmations = required_confirmations, completed_at = $2, updated_at = $2,
           credited_at = CASE WHEN account_id IS NULL THEN NULL ELSE $2::timestamptz END
         WHERE id = $1 AND status = 'pending' AND credited_at IS NULL
         RETURNING account_id, currency, amount::text AS amount`,
        [id, now],
      );
      const row = updated.rows[0];
      if (!row) return null;
      if (row.account_id === null) return { credit: null, stored: [] };
      const credit: Credit = {
        accountId: row.account_id,
        currency: row.currency,
        amount: trimAmount(row.amount),
        reference: id,
        source: 'address',
      };
      return { credit, stored: await creditInTransaction(this.deps, tx, credit, now) };
    });
    if (result === null) return false;
    if (result.credit) announceCredit(this.deps, result.credit, result.stored);
    else this.deps.log.warn({ depositId: id }, 'unattributed chain deposit confirmed: credited to nobody');
    return true;
  }
}
