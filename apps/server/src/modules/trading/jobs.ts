import type { MarketRejectReason } from '@platform/engine';
import type { OrderState } from './order-state.ts';

// A market's commands and their outcomes, in a file of their own so that the sequencer, which
// queues them, and commands.ts, which applies them, share them without importing each other.

export type CommandOutcome =
  | { status: 'accepted'; order: OrderState }
  | { status: 'rejected'; reason: MarketRejectReason | 'insufficient_balance'; order: OrderState | null };

export type Job =
  | { kind: 'place'; order: OrderState }
  | { kind: 'cancel'; orderId: string; accountId: string }
  | {
      kind: 'modify';
      orderId: string;
      accountId: string;
      quantityLots: number | null;
      priceTicks: number | null;
      stopPriceTicks: number | null;
      referenceTicks: number | null;
    };
