import {
  type CreateTransferRequest,
  transferHistoryResponseSchema,
  transferSchema,
  transferStatusResponseSchema,
  type WalletTransactionType,
  walletBalancesResponseSchema,
  walletTransactionsResponseSchema,
} from '@platform/contracts';
import { z } from 'zod';
import { apiClient } from './http.ts';

/**
 * The wallet calls of spec §7.2 and §7.3: balances and the transaction history on the main API
 * (/v1), transfers between users on the wallet service (/api/v1). Every answer is parsed with the
 * contract's schema.
 */

export interface WalletTransactionsFilter {
  type?: WalletTransactionType | undefined;
  currency?: string | undefined;
  /** ISO date-times with an offset, inclusive. */
  from?: string | undefined;
  to?: string | undefined;
  limit?: number | undefined;
  page?: number | undefined;
}

export interface PageRequest {
  limit?: number | undefined;
  page?: number | undefined;
}

/**
 * The status call is read with the contract's transfer, except that `status` may be any text: spec
 * §4 has the popup say 'Processing transfer...' for a status it does not know, rather than fail.
 */
export const transferStatusSnapshotSchema = transferStatusResponseSchema.extend({
  result: transferSchema.extend({ status: z.string().max(40) }),
});
export type TransferStatusSnapshot = z.infer<typeof transferStatusSnapshotSchema>['result'];

/** `path?a=1&b=2`, leaving out parameters that are not set. */
export function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(name, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

export const walletApi = {
  balances: async () =>
    (await apiClient.request('/v1/wallet/balances', { schema: walletBalancesResponseSchema })).balances,

  transactions: (filter: WalletTransactionsFilter = {}) =>
    apiClient.request(
      withQuery('/v1/wallet/transactions', {
        type: filter.type,
        // Spec §5: currency codes are lower-cased in requests.
        currency: filter.currency?.toLowerCase(),
        from: filter.from,
        to: filter.to,
        limit: filter.limit,
        page: filter.page,
      }),
      { schema: walletTransactionsResponseSchema },
    ),

  /**
   * The key makes the send idempotent: a retry or a second click with the same key gets the first
   * transfer back (HTTP 200 instead of 201) rather than sending twice.
   */
  createTransfer: (body: CreateTransferRequest, idempotencyKey: string) =>
    apiClient.request('/api/v1/wallet/transfer', {
      method: 'POST',
      body: { ...body, currency: body.currency.toLowerCase() },
      headers: { 'Idempotency-Key': idempotencyKey },
      schema: transferSchema,
    }),

  transferStatus: async (transferId: string): Promise<TransferStatusSnapshot> =>
    (
      await apiClient.request(`/api/v1/wallet/transfer/${encodeURIComponent(transferId)}/status`, {
        schema: transferStatusSnapshotSchema,
      })
    ).result,

  transferHistory: (request: PageRequest = {}) =>
    apiClient.request(withQuery('/api/v1/wallet/transfers/history', { limit: request.limit, page: request.page }), {
      schema: transferHistoryResponseSchema,
    }),
};
