import type { CrossAccount, CrossState, PositionRisk } from './api.ts';

const todo = (): never => {
  throw new Error('not implemented yet');
};

export function crossState(account: CrossAccount): CrossState {
  return todo();
}
/** Isolated: isolatedMargin + unrealised P&L <= maintenance margin (with a position). */
export function isolatedLiquidatable(risk: PositionRisk): boolean {
  return todo();
}
/** maintenance / margin balance as a decimal with 4 decimals, rounded up; '0' without maintenance; '1' or more when at or past liquidation. */
export function marginRatioDecimal(maintenanceMargin: bigint, marginBalance: bigint): string {
  return todo();
}
/** Unrealised P&L / (|size| x entry / leverage), as a decimal fraction with 4 decimals (towards zero). */
export function roeDecimal(unrealised: bigint, entryNotional: bigint, leverage: number): string {
  return todo();
}
