import type { FuturesPosition } from '@platform/contracts';
import { AppError } from '../../../lib/errors.ts';
import type { FuturesRouteContext } from './shared.ts';

/** The account's open position in a market as the API shows it, or POSITION_NOT_FOUND. */
export async function positionOf(
  routes: FuturesRouteContext,
  accountId: string,
  marketId: string,
): Promise<FuturesPosition> {
  const positions = await routes.exchange.accounts.positions(accountId);
  const position = positions.find((p) => p.market === marketId);
  if (!position) throw new AppError('POSITION_NOT_FOUND');
  return position;
}
