import { useQuery } from '@tanstack/react-query';
import { depositsApi } from '../../api/payments.ts';
import { useSignedInAccountId } from '../wallet/use-wallet.ts';
import { paymentQueryKeys } from './query-keys.ts';

/** What the payment provider sells by card (buy section, the trade form's funds hint). */
export function useCardOptions() {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: paymentQueryKeys.cardOptions(accountId ?? ''),
    queryFn: () => depositsApi.cardOptions(),
    enabled: accountId !== null,
    staleTime: 5 * 60_000,
  });
}
