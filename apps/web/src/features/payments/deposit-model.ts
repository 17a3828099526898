import { COINS, DEFAULT_DEPOSIT_CONFIRMATIONS, DEPOSIT_CONFIRMATIONS, type DepositStatus } from '@platform/contracts';
import { parseDecimal, toUnits } from '@platform/money';
import { z } from 'zod';
import { currencyDecimals, normalizeAmountText } from '../wallet/transfer-form.ts';

/**
 * The deposit screen as plain data (spec §2.7, §3.5, §7.3, §7.8, §9): which networks a currency
 * arrives on, the checkout amount's rules in the spec's words, the local estimate used when the
 * server's cannot be read, and how a deposit's progress reads.
 */

/** How a deposit is made: to the account's own address, or through the provider's hosted checkout. */
export const depositMethods = ['address', 'checkout'] as const;
export type DepositMethodChoice = (typeof depositMethods)[number];

/** Readable names of the networks a currency can arrive on (the catalogue's network codes). */
export const NETWORK_NAMES: Readonly<Record<string, string>> = {
  BTC: 'Bitcoin',
  ETH: 'Ethereum (ERC20)',
  TRX: 'Tron (TRC20)',
  BSC: 'BNB Smart Chain (BEP20)',
  SOL: 'Solana',
  XTZ: 'Tezos',
  EOS: 'EOS',
  KCC: 'KuCoin Community Chain',
  MATIC: 'Polygon',
  ARB: 'Arbitrum One',
  OP: 'Optimism',
  LTC: 'Litecoin',
  XRP: 'XRP Ledger',
  DOGE: 'Dogecoin',
  TON: 'TON',
  XLM: 'Stellar',
  ATOM: 'Cosmos Hub',
  HBAR: 'Hedera',
};

export function networkName(network: string): string {
  return NETWORK_NAMES[network.toUpperCase()] ?? network.toUpperCase();
}

/**
 * The networks a wallet currency arrives on, in catalogue order: several for the stablecoins
 * (USDT on Tron, Ethereum, BSC, ...), the coin's own chain (its symbol) for a native coin.
 */
export function depositNetworks(currency: string): string[] {
  const symbol = currency.trim().toUpperCase();
  const networks: string[] = [];
  for (const coin of COINS) {
    if (coin.symbol !== symbol || !coin.isEnabled) continue;
    const network = coin.network ?? symbol;
    if (!networks.includes(network)) networks.push(network);
  }
  return networks.length > 0 ? networks : [symbol];
}

/** Confirmations a deposit on `network` needs before it is credited (the server's table). */
export function confirmationsNeeded(network: string): number {
  return DEPOSIT_CONFIRMATIONS[network.toUpperCase()] ?? DEFAULT_DEPOSIT_CONFIRMATIONS;
}

export interface AmountProblem {
  key: string;
  values?: Record<string, string>;
}

const AMOUNT_LIMITS = { allowNegative: true, maxScale: 30, maxIntegerDigits: 20 } as const;

/**
 * The wallet's amount rules (§5, §9) for a checkout deposit: a positive decimal with no more than
 * the currency's decimals. Null when the amount is fine.
 */
export function checkoutAmountProblem(currency: string, typed: string): AmountProblem | null {
  const text = normalizeAmountText(typed);
  if (text === '') return { key: 'wallet.deposit.errors.amountNotPositive' };
  const parsed = parseDecimal(text, AMOUNT_LIMITS);
  if (!parsed.ok) return { key: 'errors.invalidAmount' };
  if (parsed.value.units <= 0n) return { key: 'wallet.deposit.errors.amountNotPositive' };
  const code = currency.trim().toUpperCase();
  const decimals = currencyDecimals(code);
  if (!toUnits(parsed.value, decimals).ok) {
    return { key: 'wallet.deposit.errors.tooManyDecimals', values: { decimals: String(decimals), currency: code } };
  }
  return null;
}

export interface DepositEstimateView {
  currency: string;
  amount: string;
  estimated_amount: string;
  fee: string;
  total: string;
  /** 'local' when the server's estimate could not be read and §7.8's default stands in. */
  source: 'server' | 'local';
}

/** §7.8 fallback: crypto deposits are free (§9), so what is paid arrives. */
export function localDepositEstimate(currency: string, amount: string): DepositEstimateView {
  const code = currency.trim().toUpperCase();
  return { currency: code, amount, estimated_amount: amount, fee: '0', total: amount, source: 'local' };
}

/** A deposit's progress in words: how many confirmations of how many, while it waits for them. */
export function confirmationProgress(
  confirmations: number | null,
  required: number | null,
): { confirmations: number; required: number } | null {
  if (confirmations === null || required === null || required <= 0) return null;
  return { confirmations: Math.min(confirmations, required), required };
}

export function isFinalDepositStatus(status: DepositStatus): boolean {
  return status !== 'pending';
}

/**
 * The ids of deposits that were pending in `before` and are completed in `after`: they have just
 * been credited ('Deposit confirmed', §8).
 */
export function newlyCompletedDeposits(
  before: ReadonlyMap<string, DepositStatus>,
  after: readonly { id: string; status: DepositStatus }[],
): string[] {
  return after
    .filter((deposit) => deposit.status === 'completed' && before.get(deposit.id) === 'pending')
    .map((deposit) => deposit.id);
}

// ---------------------------------------------------------------------------------------------
// The checkout round trip: the browser leaves for the provider's page and comes back
// ---------------------------------------------------------------------------------------------

/** What is remembered (per tab) while the payer is away at the checkout. */
export const pendingCheckoutSchema = z.object({
  id: z.string().min(1).max(100),
  currency: z.string().max(20),
  amount: z.string().max(64),
});
export type PendingCheckout = z.infer<typeof pendingCheckoutSchema>;

const PENDING_CHECKOUT_KEY = 'wallet.deposit.checkout';

export function readPendingCheckout(): PendingCheckout | null {
  try {
    const raw = globalThis.sessionStorage?.getItem(PENDING_CHECKOUT_KEY);
    if (!raw) return null;
    const parsed = pendingCheckoutSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function writePendingCheckout(value: PendingCheckout | null): void {
  try {
    if (value) globalThis.sessionStorage?.setItem(PENDING_CHECKOUT_KEY, JSON.stringify(value));
    else globalThis.sessionStorage?.removeItem(PENDING_CHECKOUT_KEY);
  } catch {
    // Storage blocked: the recent deposits list still shows the deposit.
  }
}
