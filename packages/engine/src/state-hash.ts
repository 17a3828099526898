import type { BookSnapshot, RestingOrder } from './types.ts';

const FNV_OFFSET_BASIS_64 = 0xcbf29ce484222325n;
const FNV_PRIME_64 = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;

/** FNV-1a, 64-bit, over the UTF-8 bytes of the text. Pure and stable across runs and machines. */
export function fnv1a64(text: string): string {
  let hash = FNV_OFFSET_BASIS_64;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * FNV_PRIME_64) & MASK_64;
  }
  return hash.toString(16).padStart(16, '0');
}

function serialiseOrder(order: RestingOrder): string {
  // Ids are length-prefixed so that no choice of id can make two different books serialise alike.
  return [
    `${order.orderId.length}:${order.orderId}`,
    `${order.accountId.length}:${order.accountId}`,
    order.side,
    order.priceTicks,
    order.remainingLots,
    order.originalLots,
    order.timestampMs,
    order.sequence,
  ].join(',');
}

/** The canonical text of a book: every field that affects future matching, in priority order. */
export function serialiseSnapshot(snapshot: BookSnapshot): string {
  const bids = snapshot.bids.map(serialiseOrder).join(';');
  const asks = snapshot.asks.map(serialiseOrder).join(';');
  return `v${snapshot.version}|last:${snapshot.lastTradePriceTicks ?? '-'}|bids:${bids}|asks:${asks}`;
}

export function snapshotHash(snapshot: BookSnapshot): string {
  return fnv1a64(serialiseSnapshot(snapshot));
}
