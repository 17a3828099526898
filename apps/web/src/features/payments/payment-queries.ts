import type { LightningPayment, Payment } from '@platform/contracts';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { paymentsApi } from '../../api/payments.ts';
import { useSignedInAccountId } from '../wallet/use-wallet.ts';
import {
  isFinalLightning,
  PAYMENT_POLL_INTERVAL_MS,
  type RememberedPayment,
  readRememberedPayments,
  rememberPayment,
  writeRememberedPayments,
} from './payment-model.ts';
import { paymentQueryKeys } from './query-keys.ts';

/** The Create Payment tab's reads: a payment or invoice is read again every 3 s until it is final. */

export function usePayment(id: string, initial?: Payment) {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: paymentQueryKeys.payment(accountId ?? '', id),
    queryFn: () => paymentsApi.get(id),
    enabled: accountId !== null,
    ...(initial ? { initialData: initial, initialDataUpdatedAt: 0 } : {}),
    refetchInterval: (query) => (query.state.data && !query.state.data.final ? PAYMENT_POLL_INTERVAL_MS : false),
  });
}

export function usePaymentCrypto(id: string, enabled: boolean) {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: paymentQueryKeys.paymentCrypto(accountId ?? '', id),
    queryFn: () => paymentsApi.crypto(id),
    enabled: accountId !== null && enabled,
    staleTime: 30_000,
    retry: 1,
  });
}

export function useLightningPayment(id: string, initial?: LightningPayment) {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: paymentQueryKeys.lightning(accountId ?? '', id),
    queryFn: () => paymentsApi.lightning(id),
    enabled: accountId !== null,
    ...(initial ? { initialData: initial, initialDataUpdatedAt: 0 } : {}),
    refetchInterval: (query) =>
      query.state.data && !isFinalLightning(query.state.data.status) ? PAYMENT_POLL_INTERVAL_MS : false,
  });
}

export type RememberedRow =
  | { kind: 'payment'; id: string; payment: Payment | null }
  | { kind: 'lightning'; id: string; lightning: LightningPayment | null };

/** Reads the remembered payments back: the checkout ones in one batch call, the invoices one by one. */
export async function readRememberedRows(list: readonly RememberedPayment[]): Promise<RememberedRow[]> {
  const paymentIds = list.filter((entry) => entry.kind === 'payment').map((entry) => entry.id);
  const lightningIds = list.filter((entry) => entry.kind === 'lightning').map((entry) => entry.id);
  const [batch, invoices] = await Promise.all([
    paymentIds.length > 0 ? paymentsApi.batchStatus(paymentIds).catch(() => null) : null,
    Promise.all(lightningIds.map((id) => paymentsApi.lightning(id).catch(() => null))),
  ]);
  const payments = new Map((batch?.payments ?? []).map((payment) => [payment.id, payment]));
  const lightning = new Map(
    invoices.filter((invoice): invoice is LightningPayment => invoice !== null).map((invoice) => [invoice.id, invoice]),
  );
  const rows: RememberedRow[] = [];
  for (const entry of list) {
    // A reference the server says is not ours (or gone) is dropped from the list.
    if (entry.kind === 'payment') {
      if (batch?.not_found.includes(entry.id)) continue;
      rows.push({ kind: 'payment', id: entry.id, payment: payments.get(entry.id) ?? null });
    } else {
      rows.push({ kind: 'lightning', id: entry.id, lightning: lightning.get(entry.id) ?? null });
    }
  }
  return rows;
}

function rowIsOpen(row: RememberedRow): boolean {
  if (row.kind === 'payment') return row.payment !== null && !row.payment.final;
  return row.lightning !== null && !isFinalLightning(row.lightning.status);
}

/** The payments and invoices created from this browser (newest first), kept per account. */
export function useRememberedPayments() {
  const accountId = useSignedInAccountId();
  const [list, setList] = useState<RememberedPayment[]>(() => (accountId ? readRememberedPayments(accountId) : []));
  useEffect(() => {
    setList(accountId ? readRememberedPayments(accountId) : []);
  }, [accountId]);
  const remember = useCallback(
    (entry: RememberedPayment) => {
      if (!accountId) return;
      setList((current) => {
        const next = rememberPayment(current, entry);
        writeRememberedPayments(accountId, next);
        return next;
      });
    },
    [accountId],
  );
  const rows = useQuery({
    queryKey: paymentQueryKeys.remembered(accountId ?? '', list),
    queryFn: () => readRememberedRows(list),
    enabled: accountId !== null && list.length > 0,
    refetchInterval: (query) => (query.state.data?.some(rowIsOpen) ? PAYMENT_POLL_INTERVAL_MS * 2 : false),
  });
  return { list, remember, rows };
}
