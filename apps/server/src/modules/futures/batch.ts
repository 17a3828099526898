import type { Queryable } from '../../db/database.ts';
import type { EntryInput, LedgerOwner, PostingInput } from '../ledger/service.ts';
import type { CommandInputs } from './journal.ts';
import type { FuturesOrderState, PositionState, SettingsState } from './types.ts';
import { moneyText } from './units.ts';

export type FillRow = {
  id: string;
  orderId: string;
  accountId: string;
  marketId: string;
  side: 'buy' | 'sell';
  role: 'maker' | 'taker';
  priceTicks: number;
  lots: number;
  fee: bigint;
  realisedPnl: bigint;
  executedAt: Date;
};
export type IncomeRow = { accountId: string; type: string; marketId: string | null; amount: bigint; reference: string };
export type TransferRow = {
  id: string;
  accountId: string;
  clientTransferId: string | null;
  direction: 'to_futures' | 'to_spot';
  amount: bigint;
  createdAt: Date;
};
export type FundingRow = {
  marketId: string;
  fundingTime: number;
  rate: bigint;
  markTicks: number;
  totalPaid: bigint;
  totalReceived: bigint;
  residual: bigint;
  positions: number;
};
export type TradeRow = {
  id: string;
  marketId: string;
  priceTicks: number;
  lots: number;
  takerSide: 'buy' | 'sell';
  at: Date;
};

export const FUTURES_WALLET = (accountId: string): LedgerOwner => ({ kind: 'futures', accountId });
export const CLEARING: LedgerOwner = { kind: 'system', name: 'futures_clearing' };
export const FEES: LedgerOwner = { kind: 'system', name: 'futures_fees' };
export const INSURANCE: LedgerOwner = { kind: 'system', name: 'insurance_fund' };

/** One ledger entry under construction: postings in money units, summed per owner and bucket. */
export class EntryBuilder {
  private readonly amounts = new Map<string, { owner: LedgerOwner; bucket: 'available' | 'locked'; amount: bigint }>();
  constructor(
    readonly kind: string,
    readonly reference: string,
  ) {}

  post(owner: LedgerOwner, bucket: 'available' | 'locked', amount: bigint): void {
    if (amount === 0n) return;
    const key = `${owner.kind}:${'accountId' in owner ? owner.accountId : owner.name}:${bucket}`;
    const existing = this.amounts.get(key);
    if (existing) existing.amount += amount;
    else this.amounts.set(key, { owner, bucket, amount });
  }

  /** from -> to, both in money units. */
  move(from: [LedgerOwner, 'available' | 'locked'], to: [LedgerOwner, 'available' | 'locked'], amount: bigint): void {
    this.post(from[0], from[1], -amount);
    this.post(to[0], to[1], amount);
  }

  build(): EntryInput | null {
    const postings: PostingInput[] = [];
    for (const { owner, bucket, amount } of this.amounts.values()) {
      if (amount !== 0n) postings.push({ owner, currency: 'USD', bucket, amount: moneyText(amount) });
    }
    return postings.length === 0 ? null : { kind: this.kind, reference: this.reference, postings };
  }
}

/** Everything one batch will write in its one transaction, and what it will announce after. */
export class Batch {
  readonly entries: EntryInput[] = [];
  readonly orders = new Map<string, FuturesOrderState>();
  readonly positions = new Map<string, PositionState>();
  readonly settings = new Map<string, SettingsState>();
  readonly fills: FillRow[] = [];
  readonly income: IncomeRow[] = [];
  readonly transfers: TransferRow[] = [];
  readonly funding: FundingRow[] = [];
  readonly trades: TradeRow[] = [];
  readonly journal: { sequence: number; kind: string; payload: unknown; inputs: CommandInputs }[] = [];
  /** Markets whose book changed. */
  readonly books = new Set<string>();
  /** `${accountId}|${marketId}` pairs whose position or margin changed, with why. */
  readonly positionReasons = new Map<string, 'fill' | 'funding' | 'margin' | 'leverage' | 'liquidation' | 'adl'>();
  /** More writes in the batch's transaction, after its rows (liquidation audit rows, notifications). */
  readonly writes: ((tx: Queryable) => Promise<void>)[] = [];
  /** Run once the batch has committed (pushes of what the writes stored). */
  readonly afterCommit: (() => void)[] = [];

  addEntry(entry: EntryBuilder): void {
    const built = entry.build();
    if (built) this.entries.push(built);
  }

  touchOrder(order: FuturesOrderState): void {
    this.orders.set(order.id, order);
  }

  touchPosition(position: PositionState, reason: 'fill' | 'funding' | 'margin' | 'leverage'): void {
    const key = `${position.accountId}|${position.marketId}`;
    this.positions.set(key, position);
    if (!this.positionReasons.has(key)) this.positionReasons.set(key, reason);
  }

  /** Frozen copies of the rows, taken when the batch is decided (later batches go on mutating the state). */
  freeze(): void {
    for (const [id, order] of this.orders) this.orders.set(id, { ...order });
    for (const [key, position] of this.positions) this.positions.set(key, { ...position });
    for (const [key, setting] of this.settings) this.settings.set(key, { ...setting });
  }
}
