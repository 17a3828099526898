import { z } from 'zod';
import { KYC_TIERS } from './kyc.ts';
import { IDEMPOTENCY_KEY_PATTERN } from './wallet.ts';

/**
 * Money going out (spec §3.5, §4, §5, §7.3, §7.4, §9): withdrawals to an outside address, mass
 * payouts (the §3.5 payout item, NOWPayments' mass-payout shape), their verification and status,
 * and the payment provider's balance shape. Amounts are decimal strings; a JSON number is accepted
 * on input and read by its text. Currency codes may come in any case (the client sends them
 * lower-cased, §5) and are answered upper-case.
 */

/** §4 wallet and transaction statuses, as the client shows them. */
export const WITHDRAWAL_STATUSES = ['pending', 'completed', 'failed'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

/** The provider's detailed payout status (NOWPayments' values), shown next to the client status. */
export const PAYOUT_PROVIDER_STATUSES = [
  'creating',
  'waiting',
  'processing',
  'sending',
  'finished',
  'failed',
  'rejected',
] as const;
export type PayoutProviderStatus = (typeof PAYOUT_PROVIDER_STATUSES)[number];

/** Most withdrawals one mass payout (POST /api/v1/wallet/payout) carries. */
export const MAX_PAYOUT_ITEMS = 100;

/** Longest destination address read (the longest real formats are well under it). */
export const WITHDRAWAL_ADDRESS_MAX_LENGTH = 128;

const amountInput = z.union([z.string().max(64), z.number()]);
const currencyInput = z.string().max(20);
/** A destination tag or memo: XRP takes an integer, so a JSON number is read by its text. */
const extraIdInput = z
  .union([z.string().max(64), z.number()])
  .nullable()
  .optional();
/** The account's current TOTP code when it has 2FA enabled (§5: crypto withdrawals require it). */
const twoFactorCodeInput = z.string().max(16).optional();
const idempotencyKeyInput = z.string().regex(IDEMPOTENCY_KEY_PATTERN).optional();

/** POST /api/v1/wallet/withdraw (and the facade's POST /v1/triple-a/wallet/withdraw). */
export const createWithdrawalRequestSchema = z.object({
  currency: currencyInput,
  amount: amountInput,
  address: z.string().max(WITHDRAWAL_ADDRESS_MAX_LENGTH),
  extra_id: extraIdInput,
  /** For a currency on several networks (USDT: TRX, ETH, BSC, SOL...); its default when absent. */
  network: z.string().max(20).optional(),
  two_factor_code: twoFactorCodeInput,
  /** Same effect as the Idempotency-Key header: a retry with the same key returns the first withdrawal. */
  idempotency_key: idempotencyKeyInput,
});
export type CreateWithdrawalRequest = z.infer<typeof createWithdrawalRequestSchema>;

/**
 * One withdrawal (a payout item). `status` is the client's (§4); `provider_status` the provider's
 * detailed one (null until the payout reached the provider). `total_amount` = amount + fee is what
 * left (or is held on) the balance.
 */
export const withdrawalSchema = z.object({
  id: z.string(),
  /** The mass payout it belongs to; a single withdrawal is a payout of one item with its own id. */
  payout_id: z.string(),
  status: z.enum(WITHDRAWAL_STATUSES),
  provider_status: z.enum(PAYOUT_PROVIDER_STATUSES).nullable(),
  currency: z.string(),
  amount: z.string(),
  fee: z.string(),
  total_amount: z.string(),
  address: z.string(),
  extra_id: z.string().nullable(),
  /** The network it is sent on, for a currency on several; null otherwise. */
  network: z.string().nullable().default(null),
  /** The provider's batch id that verify-payout takes (NOWPayments batch_withdrawal_id), once sent. */
  batch_withdrawal_id: z.string().nullable(),
  /** True while the provider waits for a verification code (POST /api/v1/wallet/verify-payout). */
  verification_required: z.boolean(),
  /** The chain transaction id once sent. */
  hash: z.string().nullable(),
  /** Why it failed (the provider's words), when it did. */
  reason: z.string().nullable(),
  /** What it was worth in USD at the reference price when it was requested (counts for the daily limit). */
  usd_value: z.string(),
  payout_description: z.string().nullable(),
  unique_external_id: z.string().nullable(),
  /** Stored as given; never called (docs/withdrawals.md). */
  ipn_callback_url: z.string().nullable(),
  fiat_amount: z.string().nullable(),
  fiat_currency: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  completed_at: z.string().nullable(),
});
export type Withdrawal = z.infer<typeof withdrawalSchema>;

/** §3.5 payout withdrawal item. */
export const payoutItemSchema = z.object({
  address: z.string().max(WITHDRAWAL_ADDRESS_MAX_LENGTH),
  currency: currencyInput,
  amount: amountInput,
  extra_id: extraIdInput,
  network: z.string().max(20).optional(),
  ipn_callback_url: z.string().max(512).nullable().optional(),
  payout_description: z.string().max(256).nullable().optional(),
  unique_external_id: z.string().max(128).nullable().optional(),
  fiat_amount: amountInput.nullable().optional(),
  fiat_currency: z.string().max(20).nullable().optional(),
});
export type PayoutItem = z.infer<typeof payoutItemSchema>;

/** POST /api/v1/wallet/payout: all items or none; one 2FA code for the whole batch. */
export const createPayoutRequestSchema = z.object({
  withdrawals: z.array(payoutItemSchema).max(MAX_PAYOUT_ITEMS),
  /** Applies to every item that has none of its own. */
  payout_description: z.string().max(256).nullable().optional(),
  ipn_callback_url: z.string().max(512).nullable().optional(),
  two_factor_code: twoFactorCodeInput,
  idempotency_key: idempotencyKeyInput,
});
export type CreatePayoutRequest = z.infer<typeof createPayoutRequestSchema>;

/**
 * A mass payout (also what POST /api/v1/wallet/payout answers): its items and their combined client
 * status (pending while any item is, failed when every item failed, else completed).
 */
export const payoutSchema = z.object({
  id: z.string(),
  status: z.enum(WITHDRAWAL_STATUSES),
  withdrawals: z.array(withdrawalSchema),
  created_at: z.string(),
});
export type Payout = z.infer<typeof payoutSchema>;

/** POST /api/v1/wallet/verify-payout: the provider's batch id (or one of our withdrawal or payout ids). */
export const verifyPayoutRequestSchema = z.object({
  batch_withdrawal_id: z.union([z.string().max(128), z.number()]),
  /** 6 digits (§9: 2FA code 6 digits); anything else is VERIFICATION_CODE_INVALID. */
  verification_code: z.union([z.string().max(16), z.number()]),
});
export type VerifyPayoutRequest = z.infer<typeof verifyPayoutRequestSchema>;

export const verifyPayoutResponseSchema = z.object({
  success: z.boolean(),
  batch_withdrawal_id: z.string(),
  withdrawals: z.array(withdrawalSchema),
});
export type VerifyPayoutResponse = z.infer<typeof verifyPayoutResponseSchema>;

/** GET /api/v1/wallet/payouts/history and GET /v1/wallet/payouts. */
export const withdrawalListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type WithdrawalListQuery = z.infer<typeof withdrawalListQuerySchema>;

/** Newest first. */
export const withdrawalListResponseSchema = z.object({
  withdrawals: z.array(withdrawalSchema),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
});
export type WithdrawalListResponse = z.infer<typeof withdrawalListResponseSchema>;

/** GET /api/v1/wallet/withdrawal-limits: the rolling 24-hour allowance of the account's KYC tier. */
export const withdrawalLimitsSchema = z.object({
  kyc_tier: z.enum(KYC_TIERS),
  daily_limit_usd: z.string(),
  used_usd: z.string(),
  remaining_usd: z.string(),
});
export type WithdrawalLimits = z.infer<typeof withdrawalLimitsSchema>;

/** §3.5 / §7.4 the provider's balance: pending = what pending withdrawals, orders and transfers hold. */
export const providerBalanceSchema = z.object({
  currency: z.string(),
  available_balance: z.string(),
  pending_balance: z.string(),
  total_balance: z.string(),
});
export type ProviderBalance = z.infer<typeof providerBalanceSchema>;
/** GET /v1/triple-a/wallet/balances. */
export const providerBalancesResponseSchema = z.array(providerBalanceSchema);
