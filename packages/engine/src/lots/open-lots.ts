import type { AcquisitionKind, LotMethod } from './api.ts';

/** A lot as the book keeps it: the acquisition and how much of it disposals have consumed so far. */
export interface LotState {
  readonly lotId: string;
  readonly kind: AcquisitionKind;
  readonly acquiredTimeMs: number;
  readonly sequence: number;
  readonly amount: bigint;
  readonly costUsd: bigint;
  /** costUsd / amount as a float, only to order HIFO lots quickly; ties and near-ties are decided exactly. */
  readonly unitCostEstimate: number;
  consumedAmount: bigint;
  /** Cost carried by the consumed part: floor(costUsd x consumedAmount / amount) (api.ts, rounding). */
  consumedCostUsd: bigint;
}

/**
 * The open lots in the order a method consumes them. Only the front lot is ever consumed; a partly
 * consumed lot stays in front (its order key never changes), and leaves when it is empty.
 */
export interface OpenLotQueue {
  readonly size: number;
  /** The lot the next disposal consumes, or undefined when none is open. */
  front(): LotState | undefined;
  removeFront(): void;
  add(lot: LotState): void;
  /** Every open lot, in acquisition order. */
  inAcquisitionOrder(): LotState[];
}

export function createOpenLotQueue(method: LotMethod): OpenLotQueue {
  if (method === 'fifo') return new FifoQueue();
  if (method === 'lifo') return new LifoStack();
  return new HifoHeap();
}

/** Oldest first: an array with a moving head, compacted when the consumed prefix dominates. */
class FifoQueue implements OpenLotQueue {
  private lots: LotState[] = [];
  private head = 0;

  get size(): number {
    return this.lots.length - this.head;
  }
  front(): LotState | undefined {
    return this.lots[this.head];
  }
  removeFront(): void {
    this.head++;
    // Drop the consumed prefix once it is most of the array, so memory follows the open lots.
    if (this.head >= 1024 && this.head * 2 >= this.lots.length) {
      this.lots = this.lots.slice(this.head);
      this.head = 0;
    }
  }
  add(lot: LotState): void {
    this.lots.push(lot);
  }
  inAcquisitionOrder(): LotState[] {
    return this.lots.slice(this.head);
  }
}

/** Newest first: a stack. Bottom to top is acquisition order. */
class LifoStack implements OpenLotQueue {
  private readonly lots: LotState[] = [];

  get size(): number {
    return this.lots.length;
  }
  front(): LotState | undefined {
    return this.lots[this.lots.length - 1];
  }
  removeFront(): void {
    this.lots.pop();
  }
  add(lot: LotState): void {
    this.lots.push(lot);
  }
  inAcquisitionOrder(): LotState[] {
    return this.lots.slice();
  }
}

/**
 * Relative gap below which two float estimates of a cost per unit may come from equal or swapped
 * exact values. Each estimate is within about 3.3e-16 (relative) of its exact value (two roundings:
 * bigint to double, and the division), so a gap above 1e-12 decides the order without doubt.
 */
const ESTIMATE_TOLERANCE = 1e-12;

/**
 * True when HIFO consumes a before b: the higher cost per unit first; equal costs per unit, the
 * earlier acquisition (lower sequence: the history is in time order, so this is "earlier time, then
 * earlier in the history"). Exact: the float estimate only settles clear cases, and everything else
 * is compared by cross-multiplication.
 */
export function hifoBefore(a: LotState, b: LotState): boolean {
  const x = a.unitCostEstimate;
  const y = b.unitCostEstimate;
  if (x !== y) {
    const tolerance = ESTIMATE_TOLERANCE * (x > y ? x : y);
    if (x - y > tolerance) return true;
    if (y - x > tolerance) return false;
  }
  const left = a.costUsd * b.amount;
  const right = b.costUsd * a.amount;
  if (left !== right) return left > right;
  return a.sequence < b.sequence;
}

/**
 * Highest cost per unit first: a binary heap, so a disposal costs O(log n) per lot it empties
 * instead of a scan over every open lot.
 */
class HifoHeap implements OpenLotQueue {
  private readonly heap: LotState[] = [];

  get size(): number {
    return this.heap.length;
  }
  front(): LotState | undefined {
    return this.heap[0];
  }
  add(lot: LotState): void {
    const heap = this.heap;
    let index = heap.length;
    heap.push(lot);
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const parentLot = heap[parent]!;
      if (!hifoBefore(lot, parentLot)) break;
      heap[index] = parentLot;
      index = parent;
    }
    heap[index] = lot;
  }
  removeFront(): void {
    const heap = this.heap;
    const last = heap.pop();
    if (last === undefined || heap.length === 0) return;
    const length = heap.length;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= length) break;
      const right = left + 1;
      const child = right < length && hifoBefore(heap[right]!, heap[left]!) ? right : left;
      const childLot = heap[child]!;
      if (!hifoBefore(childLot, last)) break;
      heap[index] = childLot;
      index = child;
    }
    heap[index] = last;
  }
  inAcquisitionOrder(): LotState[] {
    return this.heap.slice().sort((a, b) => a.sequence - b.sequence);
  }
}
