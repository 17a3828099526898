import { EXPORT_CSV_COLUMNS } from '@platform/contracts';
import type { ConversionRecord } from '../conversions/index.ts';
import type { FuturesFill, FuturesTransfer } from '../futures/index.ts';
import type { DepositRecord } from '../payments/index.ts';
import type { SpotFill } from '../trading/index.ts';
import type { UserTransfer } from '../wallet/index.ts';
import type { WithdrawalRecord } from '../withdrawals/index.ts';
import { csvDecimal, csvField, csvHeader, csvOptional, csvProduct, csvRecord, csvTime } from './csv.ts';

// One CSV record per history row, in the columns of contracts' EXPORT_CSV_COLUMNS (docs/portfolio.md,
// "Exports"). Amounts are the stored decimals, exact; text goes through csvField.

export const HEADERS = {
  trades: csvHeader(EXPORT_CSV_COLUMNS.trades),
  transfers: csvHeader(EXPORT_CSV_COLUMNS.transfers),
  deposits: csvHeader(EXPORT_CSV_COLUMNS.deposits),
  withdrawals: csvHeader(EXPORT_CSV_COLUMNS.withdrawals),
};

/** The futures wallet's currency: fees and P&L of futures fills are in it. */
const FUTURES_CURRENCY = 'USD';

export function spotFillRecord(fill: SpotFill): string {
  return csvRecord([
    csvTime(fill.executedAt),
    'spot',
    csvField(fill.pairId.replace('_', '/')),
    csvField(fill.side),
    csvField(fill.role),
    csvDecimal(fill.price),
    csvDecimal(fill.quantity),
    csvDecimal(fill.total),
    csvDecimal(fill.fee),
    csvField(fill.feeCurrency),
    '',
    csvField(fill.orderId),
    csvField(fill.tradeId),
  ]);
}

export function futuresFillRecord(fill: FuturesFill): string {
  return csvRecord([
    csvTime(fill.executedAt),
    'futures',
    csvField(fill.marketId),
    csvField(fill.side),
    csvField(fill.role),
    csvDecimal(fill.price),
    csvDecimal(fill.quantity),
    csvProduct(fill.price, fill.quantity),
    csvDecimal(fill.fee),
    FUTURES_CURRENCY,
    csvDecimal(fill.realisedPnl),
    csvField(fill.orderId),
    csvField(fill.fillId),
  ]);
}

/**
 * A conversion or quick trade as a trade row: a sale of the currency given (Market FROM/TO, Side
 * sell), at the net rate it was quoted (Price), Amount what was given, Total what was received;
 * the Fee is the spread in the currency received (the desk kept it out of the gross). No order and
 * no role (the house desk is not a book); the Trade ID is the conversion's id.
 */
export function conversionRecord(conversion: ConversionRecord): string {
  return csvRecord([
    csvTime(conversion.createdAt),
    'conversion',
    csvField(`${conversion.fromCurrency}/${conversion.toCurrency}`),
    'sell',
    '',
    csvDecimal(conversion.rate),
    csvDecimal(conversion.fromAmount),
    csvDecimal(conversion.toAmount),
    csvDecimal(conversion.spreadAmount),
    csvField(conversion.toCurrency),
    '',
    '',
    csvField(conversion.conversionId),
  ]);
}

const SPOT_WALLET = 'Spot wallet';
const FUTURES_WALLET = 'Futures wallet';

/** The other side of a transfer between users: their public handle, or words when they have none. */
const userLabel = (username: string | null) => (username === null ? 'Another user' : `User ${username}`);

/** Transfer statuses in the words the other exports use. */
const TRANSFER_STATUS = {
  CREATED: 'pending',
  WAITING: 'pending',
  FINISHED: 'completed',
  REJECTED: 'rejected',
} as const;

export function userTransferRecord(transfer: UserTransfer): string {
  const sent = transfer.direction === 'sent';
  return csvRecord([
    csvTime(transfer.createdAt),
    csvField(sent ? SPOT_WALLET : userLabel(transfer.fromUsername)),
    csvField(sent ? userLabel(transfer.toUsername) : SPOT_WALLET),
    csvField(transfer.currency),
    csvDecimal(transfer.amount),
    TRANSFER_STATUS[transfer.status],
    csvField(transfer.transferId),
  ]);
}

export function futuresTransferRecord(transfer: FuturesTransfer): string {
  const toFutures = transfer.direction === 'to_futures';
  return csvRecord([
    csvTime(transfer.createdAt),
    toFutures ? SPOT_WALLET : FUTURES_WALLET,
    toFutures ? FUTURES_WALLET : SPOT_WALLET,
    FUTURES_CURRENCY,
    csvDecimal(transfer.amount),
    'completed',
    csvField(transfer.transferId),
  ]);
}

export function depositRecord(deposit: DepositRecord): string {
  return csvRecord([
    csvTime(deposit.createdAt),
    csvField(deposit.currency),
    csvDecimal(deposit.amount),
    csvField(deposit.method === 'address' ? (deposit.network ?? 'address') : deposit.method),
    csvField(deposit.status),
    csvOptional(deposit.reference),
    csvField(deposit.depositId),
  ]);
}

export function withdrawalRecord(withdrawal: WithdrawalRecord): string {
  return csvRecord([
    csvTime(withdrawal.createdAt),
    csvField(withdrawal.currency),
    csvDecimal(withdrawal.amount),
    csvDecimal(withdrawal.fee),
    csvOptional(withdrawal.network),
    csvField(withdrawal.address),
    csvField(withdrawal.status),
    csvOptional(withdrawal.hash),
    csvField(withdrawal.withdrawalId),
  ]);
}
