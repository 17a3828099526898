import type { ConversionEstimateQuery } from '@platform/contracts';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { type CreateConversionBody, conversionsApi, type ExecuteTradeBody } from '../../api/conversions.ts';
import { availableByCurrency } from '../wallet/balances-model.ts';
import { walletCurrencies } from '../wallet/transfer-form.ts';
import { useDebouncedValue } from '../wallet/use-timers.ts';
import { useInvalidateWallet, useSignedInAccountId, useWalletBalances } from '../wallet/use-wallet.ts';
import { conversionQueryKeys } from './query-keys.ts';

/** The queries of the Legacy Wallet tab's conversion desk (keys: ./query-keys.ts). */

/** How long typing must pause before a new quote is asked for. */
export const ESTIMATE_DEBOUNCE_MS = 400;
/** Rows of the conversion and trade histories. */
export const LEGACY_HISTORY_LIMIT = 20;

export function useConversionPairs() {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: conversionQueryKeys.pairs(accountId ?? ''),
    queryFn: conversionsApi.pairs,
    enabled: accountId !== null,
    staleTime: 5 * 60_000,
  });
}

/** Spec §7.8: false on any error (the API call never throws). */
export function useConversionSupported(from: string, to: string) {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: conversionQueryKeys.supported(accountId ?? '', from, to),
    queryFn: () => conversionsApi.supported(from, to),
    enabled: accountId !== null && from !== '' && to !== '' && from !== to,
    staleTime: 5 * 60_000,
  });
}

/**
 * A quote for exactly this request. It is asked for once per request and kept until the user asks
 * again (refetch) or changes the request: an automatic refresh would swap the quote under the user's
 * eyes. gcTime 0: going back to an earlier request asks for a fresh quote.
 */
export function useConversionEstimate(request: ConversionEstimateQuery | null) {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: conversionQueryKeys.estimate(accountId ?? '', request),
    queryFn: () => conversionsApi.estimate(request as ConversionEstimateQuery),
    enabled: accountId !== null && request !== null,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

/**
 * A quote for `request` once it has stopped changing for ESTIMATE_DEBOUNCE_MS, and whether the
 * request on screen is still settling. The request is compared by its text, so that a re-render
 * with an equal request does not restart the wait.
 */
export function useSettledEstimate(request: ConversionEstimateQuery | null) {
  const wantedKey = request ? JSON.stringify(request) : '';
  const settledKey = useDebouncedValue(wantedKey, ESTIMATE_DEBOUNCE_MS);
  const settled = useMemo(
    () => (settledKey ? (JSON.parse(settledKey) as ConversionEstimateQuery) : null),
    [settledKey],
  );
  return { estimate: useConversionEstimate(settled), settling: wantedKey !== settledKey };
}

export function useConversionHistory(limit = LEGACY_HISTORY_LIMIT) {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: conversionQueryKeys.conversionHistory(accountId ?? '', limit),
    queryFn: () => conversionsApi.history(limit),
    enabled: accountId !== null,
    placeholderData: keepPreviousData,
  });
}

export function useTradeHistory(limit = LEGACY_HISTORY_LIMIT) {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: conversionQueryKeys.tradeHistory(accountId ?? '', limit),
    queryFn: () => conversionsApi.tradeHistory(limit),
    enabled: accountId !== null,
    placeholderData: keepPreviousData,
  });
}

/** A settled conversion moved two balances: the wallet (balances and histories) is read again. */
export function useCreateConversion() {
  const invalidateWallet = useInvalidateWallet();
  return useMutation({
    mutationFn: (variables: { body: CreateConversionBody; idempotencyKey: string }) =>
      conversionsApi.create(variables.body, variables.idempotencyKey),
    onSuccess: invalidateWallet,
  });
}

export function useExecuteTrade() {
  const invalidateWallet = useInvalidateWallet();
  return useMutation({
    mutationFn: (variables: { body: ExecuteTradeBody; idempotencyKey: string }) =>
      conversionsApi.executeTrade(variables.body, variables.idempotencyKey),
    onSuccess: invalidateWallet,
  });
}

/**
 * The currencies the desk offers: the server's convertible currencies (GET /conversions/pairs), or,
 * while they load or when they failed, the wallet's own; the available balance of each; and which
 * currencies one can reach from a given one.
 */
export function useDeskCurrencies() {
  const pairs = useConversionPairs();
  const balances = useWalletBalances();
  const currencies = useMemo(
    () => (pairs.data ? pairs.data.currencies.map((code) => code.toUpperCase()) : walletCurrencies(balances.data)),
    [pairs.data, balances.data],
  );
  const available = useMemo(() => (balances.data ? availableByCurrency(balances.data) : null), [balances.data]);
  const reachableFrom = useCallback(
    (from: string): string[] => {
      if (!pairs.data) return currencies.filter((code) => code !== from);
      const targets = new Set(
        pairs.data.pairs
          .filter((pair) => pair.from_currency.toUpperCase() === from)
          .map((pair) => pair.to_currency.toUpperCase()),
      );
      return currencies.filter((code) => targets.has(code));
    },
    [pairs.data, currencies],
  );
  return {
    currencies,
    available,
    reachableFrom,
    pairsError: pairs.isError && !pairs.data ? pairs.error : null,
    retryPairs: () => void pairs.refetch(),
  };
}
