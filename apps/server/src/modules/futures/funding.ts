import { perp } from '@platform/engine';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { EntryBuilder, FUTURES_WALLET, type FundingRow, INSURANCE } from './batch.ts';
import type { DecideContext } from './context.ts';
import type { PositionState } from './types.ts';

export type FundingCommand = { marketId: string; rate: bigint; markTicks: number; fundingTime: number };

/**
 * One funding round of a market (one ledger entry, kind futures_funding): each position pays or
 * receives size x mark x rate (perp.fundingPayments: payers ceil, receivers floor, the residual to
 * the insurance fund). A payer pays from its cross wallet or isolated margin what it can; the
 * insurance fund pays the part it cannot (income insurance_clear). Idempotent per (market, time):
 * the exchange refuses a round it has already written.
 */
export function settleFunding(ctx: DecideContext, command: FundingCommand): Result<FundingRow> {
  const { state, batch } = ctx;
  const spec = state.markets.get(command.marketId);
  if (!spec) return fail('FUTURES_MARKET_NOT_FOUND');
  const open = [...state.positions.values()].filter((p) => p.marketId === spec.id && p.sizeLots !== 0);
  const byId = new Map(open.map((p) => [p.accountId, p]));
  const { payments, residual } = perp.fundingPayments(
    spec,
    command.markTicks,
    command.rate,
    open.map((p) => ({ id: p.accountId, position: { sizeLots: p.sizeLots, costTickLots: p.costTickLots } })),
  );
  const reference = `${spec.id}:${command.fundingTime}`;
  const entry = new EntryBuilder('futures_funding', reference);
  let totalPaid = 0n;
  let totalReceived = 0n;
  for (const payment of payments) {
    const position = byId.get(payment.id)!;
    if (payment.amount > 0n) totalPaid += payment.amount;
    else totalReceived -= payment.amount;
    fundOne(ctx, entry, position, payment.amount, reference);
  }
  entry.post(INSURANCE, 'available', residual);
  state.insuranceFund += residual;
  batch.addEntry(entry);
  const row: FundingRow = {
    marketId: spec.id,
    fundingTime: command.fundingTime,
    rate: command.rate,
    markTicks: command.markTicks,
    totalPaid,
    totalReceived,
    residual,
    positions: open.length,
  };
  batch.funding.push(row);
  return ok(row);
}

/** amount > 0: the position pays it; < 0: receives -amount. */
function fundOne(ctx: DecideContext, entry: EntryBuilder, position: PositionState, amount: bigint, reference: string) {
  const { state, batch } = ctx;
  const isolated = state.setting(position.accountId, position.marketId).mode === 'isolated';
  const bucket = isolated ? 'locked' : 'available';
  const wallet = state.wallet(position.accountId);
  const user = FUTURES_WALLET(position.accountId);
  if (amount > 0n) {
    const source = isolated ? position.isolatedMargin : wallet.available;
    const paid = amount < source ? amount : source > 0n ? source : 0n;
    entry.post(user, bucket, -paid);
    entry.post(INSURANCE, 'available', -(amount - paid));
    state.insuranceFund -= amount - paid;
    if (amount > paid) {
      batch.income.push({
        accountId: position.accountId,
        type: 'insurance_clear',
        marketId: position.marketId,
        amount: amount - paid,
        reference,
      });
    }
    adjust(position, wallet, isolated, -paid);
  } else {
    entry.post(user, bucket, -amount);
    adjust(position, wallet, isolated, -amount);
  }
  batch.income.push({
    accountId: position.accountId,
    type: 'funding',
    marketId: position.marketId,
    amount: -amount,
    reference,
  });
  position.updatedAt = ctx.now;
  batch.touchPosition(position, 'funding');
}

function adjust(
  position: PositionState,
  wallet: { available: bigint; locked: bigint },
  isolated: boolean,
  delta: bigint,
) {
  if (isolated) {
    wallet.locked += delta;
    position.isolatedMargin += delta;
  } else wallet.available += delta;
}
