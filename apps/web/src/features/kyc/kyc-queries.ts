import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { kycApi } from '../../api/kyc.ts';
import { useSignedInAccountId } from '../wallet/use-wallet.ts';
import { kycQueryKeys } from './query-keys.ts';

/**
 * How often a pending verification's status is read again while the tab is open: a reviewer's
 * decision shows without a reload.
 */
export const KYC_PENDING_REFRESH_MS = 30_000;

export function useKycStatus() {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: kycQueryKeys.status(accountId ?? ''),
    queryFn: kycApi.status,
    enabled: accountId !== null,
    refetchOnWindowFocus: true,
    refetchInterval: (query) =>
      query.state.data?.latest_submission?.status === 'pending' ? KYC_PENDING_REFRESH_MS : false,
  });
}

/** GET /v1/triple-a/kyc/{id}: the latest submission as its owner sees it. */
export function useKycSubmission(id: string | null) {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: kycQueryKeys.submission(accountId ?? '', id ?? ''),
    queryFn: () => kycApi.submission(id ?? ''),
    enabled: accountId !== null && id !== null,
  });
}

export function useSubmitKyc() {
  const accountId = useSignedInAccountId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: kycApi.submit,
    onSuccess: () => {
      if (accountId) void queryClient.invalidateQueries({ queryKey: kycQueryKeys.all(accountId) });
    },
  });
}
