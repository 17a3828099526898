import type { FuturesMarket } from '@platform/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { futuresApi } from '../../../api/futures.ts';
import { errorMessage } from '../../../lib/error-message.ts';
import { newClientOrderId } from '../../trade/order-form.ts';
import { isDefinitiveRefusal } from '../../trade/use-place-order.ts';
import { futuresKeys } from '../futures-queries.ts';
import { type FuturesFormState, toOrderRequest } from './futures-order-model.ts';

/**
 * Sends the form. The client order id is kept across a lost answer or a 5xx (a retry returns the
 * first order), and renewed after a change of the form, a success or a refusal.
 */
export function useOrderSubmit(market: FuturesMarket, onPlaced: () => void) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [clientOrderId, setClientOrderId] = useState(newClientOrderId);
  const renewId = () => setClientOrderId(newClientOrderId());
  const mutation = useMutation({
    mutationFn: (state: FuturesFormState) => {
      const request = toOrderRequest(state, market, clientOrderId);
      if (!request) throw new Error('invalid form');
      return futuresApi.placeOrder(request);
    },
    onSuccess: () => {
      toast.success(t('futures.form.placed'));
      renewId();
      void queryClient.invalidateQueries({ queryKey: futuresKeys.all });
      onPlaced();
    },
    onError: (error) => {
      if (isDefinitiveRefusal(error)) renewId();
    },
  });
  const failure = mutation.error ? errorMessage(mutation.error, t, 'errors.failedToPlaceOrder') : null;
  return { submit: mutation.mutate, pending: mutation.isPending, failure, renewId, reset: mutation.reset };
}
