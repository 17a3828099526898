import {
  type AcquisitionKind,
  type DisposalKind,
  LOT_METHODS,
  type LotError,
  type LotErrorReason,
  type LotEvent,
  type LotMethod,
  MAX_ASSET_SCALE,
  MAX_TIME_MS,
  MAX_UNITS,
  MIN_TIME_MS,
} from './api.ts';

const ACQUISITION_KINDS: ReadonlySet<string> = new Set<AcquisitionKind>([
  'buy',
  'conversion_in',
  'deposit',
  'transfer_in',
  'other',
]);
const DISPOSAL_KINDS: ReadonlySet<string> = new Set<DisposalKind>([
  'sell',
  'conversion_out',
  'withdrawal',
  'transfer_out',
  'fee',
  'other',
]);
/** Longest event id: ids are the ledger's (UUIDs, numeric sequences); a longer one is a mistake. */
export const MAX_EVENT_ID_LENGTH = 200;

export function lotError(
  reason: LotErrorReason,
  message: string,
  event?: { id: string; index: number },
  shortfallAmount?: bigint,
): LotError {
  const error: LotError = { ok: false, reason, message };
  if (event) {
    error.eventId = event.id;
    error.eventIndex = event.index;
  }
  if (shortfallAmount !== undefined) error.shortfallAmount = shortfallAmount;
  return error;
}

export function checkScale(scale: number): LotError | null {
  if (Number.isInteger(scale) && scale >= 0 && scale <= MAX_ASSET_SCALE) return null;
  return lotError('invalid_scale', `asset scale must be an integer 0..${MAX_ASSET_SCALE}, got ${String(scale)}`);
}

export function checkMethod(method: string): method is LotMethod {
  return (LOT_METHODS as readonly string[]).includes(method);
}

// Module-level copies: read once per check, so the hot path does not go through the import binding.
const maxUnits = MAX_UNITS;
const minTimeMs = MIN_TIME_MS;
const maxTimeMs = MAX_TIME_MS;

const isUnits = (value: unknown, minimum: bigint): value is bigint =>
  typeof value === 'bigint' && value >= minimum && value <= maxUnits;

/**
 * The checks one event passes on its own (its place in the history is the book's business). The
 * history may come from outside the engine (a database row, an import), so every field is checked
 * at run time, not only by the compiler.
 */
export function checkEvent(event: LotEvent, index: number): LotError | null {
  const id = typeof event?.id === 'string' ? event.id : '';
  if (id.length === 0 || id.length > MAX_EVENT_ID_LENGTH) {
    return lotError('invalid_event', `event ${index}: id must be 1..${MAX_EVENT_ID_LENGTH} characters`, { id, index });
  }
  const kinds = event.type === 'acquisition' ? ACQUISITION_KINDS : event.type === 'disposal' ? DISPOSAL_KINDS : null;
  if (kinds === null || !kinds.has(event.kind)) {
    return lotError('invalid_event', `event ${id}: unknown type or kind`, { id, index });
  }
  if (!Number.isSafeInteger(event.timeMs) || event.timeMs < minTimeMs || event.timeMs > maxTimeMs) {
    return lotError('invalid_time', `event ${id}: timeMs must be an integer in ${MIN_TIME_MS}..${MAX_TIME_MS}`, {
      id,
      index,
    });
  }
  if (!isUnits(event.amount, 1n)) {
    return lotError('invalid_amount', `event ${id}: amount must be a bigint in 1..10^38-1`, { id, index });
  }
  const valuesValid =
    event.type === 'acquisition'
      ? isUnits(event.costUsd, 0n)
      : isUnits(event.proceedsUsd, 0n) && isUnits(event.feeUsd, 0n);
  if (!valuesValid) {
    return lotError('invalid_value', `event ${id}: USD values must be bigints in 0..10^38-1`, { id, index });
  }
  return null;
}
