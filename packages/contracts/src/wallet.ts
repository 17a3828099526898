import { z } from 'zod';

/**
 * The custodial wallet (spec §2.7, §3.5, §5, §7.3, §9): balances, the transaction history and
 * transfers between users. Amounts are decimal strings; a JSON number is accepted on input and read
 * by its text. Currency codes may come in any case (the client sends them lower-cased, §5) and are
 * answered upper-case.
 */

/** §9 "Amount decimals" per currency; 8 for any other. */
export const CURRENCY_DECIMALS: Readonly<Record<string, number>> = {
  BTC: 8,
  ETH: 8,
  LTC: 8,
  BNB: 8,
  DOGE: 8,
  XRP: 6,
  ADA: 6,
  DOT: 4,
  MATIC: 4,
  USDT: 2,
  USDC: 2,
  USD: 2,
};
export const DEFAULT_CURRENCY_DECIMALS = 8;

/**
 * The smallest transfer, in units of the currency's last decimal (§9): 100 of them, so 0.000001 BTC,
 * 1 USDT, 0.01 DOT. Below it a transfer is dust that costs more to record than it moves.
 */
export const MIN_TRANSFER_UNITS = 100;

/** Longest memo a transfer carries. */
export const TRANSFER_MEMO_MAX_LENGTH = 140;

/**
 * Transfer statuses (§4's popup): CREATED (accepted, the sender's funds held), WAITING (being
 * settled), FINISHED (the recipient has the funds), REJECTED (refused at settlement; the hold went
 * back to the sender).
 */
export const TRANSFER_STATUSES = ['CREATED', 'WAITING', 'FINISHED', 'REJECTED'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

const amountInput = z.union([z.string().max(64), z.number()]);

export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_:.-]{1,64}$/;

export const createTransferRequestSchema = z.object({
  to_username: z.string().max(64),
  currency: z.string().max(20),
  amount: amountInput,
  memo: z.string().max(TRANSFER_MEMO_MAX_LENGTH).optional(),
  /** Same effect as the Idempotency-Key header: a retry with the same key returns the first transfer. */
  idempotency_key: z.string().regex(IDEMPOTENCY_KEY_PATTERN).optional(),
});
export type CreateTransferRequest = z.infer<typeof createTransferRequestSchema>;

export const transferSchema = z.object({
  id: z.string(),
  status: z.enum(TRANSFER_STATUSES),
  direction: z.enum(['sent', 'received']),
  from_username: z.string().nullable(),
  to_username: z.string().nullable(),
  currency: z.string(),
  amount: z.string(),
  memo: z.string().nullable(),
  reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Transfer = z.infer<typeof transferSchema>;

/** GET /api/v1/wallet/transfer/{id}/status: the client reads status, amount and currency from `result`. */
export const transferStatusResponseSchema = z.object({ result: transferSchema });
export type TransferStatusResponse = z.infer<typeof transferStatusResponseSchema>;

export const transferHistoryQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export const transferHistoryResponseSchema = z.object({
  transfers: z.array(transferSchema),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
});
export type TransferHistoryResponse = z.infer<typeof transferHistoryResponseSchema>;

/** §3.5 balance: currency, available, locked (decimal strings). */
export const walletBalanceSchema = z.object({
  currency: z.string(),
  available: z.string(),
  locked: z.string(),
});
export type WalletBalance = z.infer<typeof walletBalanceSchema>;
export const walletBalancesResponseSchema = z.object({ balances: z.array(walletBalanceSchema) });

/** What moved a balance, from the account's point of view. */
export const WALLET_TRANSACTION_TYPES = [
  'deposit',
  'withdrawal',
  'transfer_in',
  'transfer_out',
  'trade',
  'conversion',
] as const;
export type WalletTransactionType = (typeof WALLET_TRANSACTION_TYPES)[number];

export const walletTransactionSchema = z.object({
  id: z.string(),
  type: z.enum(WALLET_TRANSACTION_TYPES),
  currency: z.string(),
  /** Signed: what the account's total (available + locked) in this currency gained or lost. */
  amount: z.string(),
  reference: z.string(),
  /** A transfer's other side: the recipient's username for transfer_out, the sender's for transfer_in. */
  counterparty: z.string().nullable().default(null),
  created_at: z.string(),
});
export type WalletTransaction = z.infer<typeof walletTransactionSchema>;

export const walletTransactionsQuerySchema = z.object({
  type: z.enum(WALLET_TRANSACTION_TYPES).optional(),
  currency: z.string().max(20).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type WalletTransactionsQuery = z.infer<typeof walletTransactionsQuerySchema>;
export const walletTransactionsResponseSchema = z.object({
  transactions: z.array(walletTransactionSchema),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
});
export type WalletTransactionsResponse = z.infer<typeof walletTransactionsResponseSchema>;

/** §9 "Withdrawal fallbacks": base network fee per currency; the fee is the larger of it and 0.1 % of the amount. */
export const WITHDRAWAL_BASE_FEES: Readonly<Record<string, string>> = {
  BTC: '0.0001',
  ETH: '0.002',
  USDT: '1',
  USDC: '1',
  LTC: '0.001',
  XRP: '0.1',
  ADA: '1',
  DOT: '0.1',
  BNB: '0.0005',
  MATIC: '0.1',
  DOGE: '1',
};
export const DEFAULT_WITHDRAWAL_BASE_FEE = '0.001';
/** The proportional part of a withdrawal fee: 0.1 % (10 basis points). */
export const WITHDRAWAL_FEE_BPS = 10;

/** §9 minimum withdrawal per currency; 0.001 for any other. */
export const WITHDRAWAL_MINIMUMS: Readonly<Record<string, string>> = {
  BTC: '0.01',
  ETH: '0.01',
  USDT: '50',
  USDC: '50',
  LTC: '0.1',
  XRP: '100',
  ADA: '50',
  DOT: '5',
  BNB: '0.1',
  MATIC: '20',
  DOGE: '500',
};
export const DEFAULT_WITHDRAWAL_MINIMUM = '0.001';

export const feeQuerySchema = z.object({
  currency: z.string().max(20),
  amount: z.string().max(64),
  /** Withdrawal fees: the network of a currency on several (docs/withdrawals.md, "Networks"). */
  network: z.string().max(20).optional(),
});

/** §3.5 fee estimate: what a withdrawal of `amount` costs and takes from the balance in all. */
export const withdrawalFeeEstimateSchema = z.object({
  currency: z.string(),
  amount: z.string(),
  fee: z.string(),
  total_amount: z.string(),
});
export type WithdrawalFeeEstimate = z.infer<typeof withdrawalFeeEstimateSchema>;

/** GET /api/v1/wallet/withdrawal-fee: fee and total. */
export const withdrawalFeeSchema = z.object({
  currency: z.string(),
  amount: z.string(),
  fee: z.string(),
  total: z.string(),
});

/** GET /api/v1/wallet/deposit-estimate: what arrives for a deposit of `amount`. */
export const depositEstimateSchema = z.object({
  currency: z.string(),
  amount: z.string(),
  estimated_amount: z.string(),
  fee: z.string(),
  total: z.string(),
});

/** GET /api/v1/wallet/minimum-amounts: the smallest withdrawal per wallet currency, upper-case codes. */
export const minimumAmountsSchema = z.object({
  minimums: z.record(z.string(), z.string()),
  default: z.string(),
});
