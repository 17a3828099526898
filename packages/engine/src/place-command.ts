import { MAX_UNITS, type PlaceCommand, type RejectReason } from './types.ts';

/** Ticks and lots must be positive safe integers. */
export function isPositiveUnits(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0 && value <= MAX_UNITS;
}

/**
 * What is wrong with a place command on its own, whatever the book holds (both books then check
 * the order id against what they hold): null when nothing.
 */
export function placeCommandProblem(command: PlaceCommand): RejectReason | null {
  if (!isPositiveUnits(command.quantityLots)) return 'invalid_quantity';
  if (command.type === 'limit' && !isPositiveUnits(command.priceTicks)) return 'invalid_price';
  if (command.type === 'market' && command.priceTicks !== 0 && !isPositiveUnits(command.priceTicks)) {
    return 'invalid_price';
  }
  if (command.quoteBudget !== undefined) {
    if (command.type !== 'market' || command.quoteBudget <= 0n) return 'invalid_quote_budget';
    // "All or nothing" has no clear meaning for a budget that whole lots rarely spend exactly.
    if (command.timeInForce === 'FOK') return 'invalid_time_in_force';
  }
  if (command.type === 'market' && command.postOnly) return 'invalid_order_type';
  // A market order never rests, so GTC has no meaning for it; post-only must be able to rest.
  if (command.type === 'market' && command.timeInForce === 'GTC') return 'invalid_time_in_force';
  if (command.postOnly && command.timeInForce !== 'GTC') return 'invalid_time_in_force';
  return null;
}
