import type { ConversionEstimateQuery } from '@platform/contracts';
import { walletQueryKeys } from '../wallet/query-keys.ts';

/**
 * The TanStack Query keys of the conversion desk (the Legacy Wallet tab). The histories live under
 * the wallet's key, so that a balance update (socket) or a finished conversion refreshes them with
 * the balances; the desk's own reads (pairs, support, quotes) do not, so a balance change never
 * replaces a quote on screen.
 */
export const conversionQueryKeys = {
  desk: (accountId: string) => ['conversions', accountId] as const,
  pairs: (accountId: string) => ['conversions', accountId, 'pairs'] as const,
  supported: (accountId: string, from: string, to: string) =>
    ['conversions', accountId, 'supported', from, to] as const,
  estimate: (accountId: string, request: ConversionEstimateQuery | null) =>
    ['conversions', accountId, 'estimate', request] as const,
  conversionHistory: (accountId: string, limit: number) =>
    [...walletQueryKeys.all(accountId), 'conversions', limit] as const,
  tradeHistory: (accountId: string, limit: number) => [...walletQueryKeys.all(accountId), 'trades', limit] as const,
};
