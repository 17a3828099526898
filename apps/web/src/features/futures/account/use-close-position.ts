import type { FuturesPosition, PlaceFuturesOrderRequest } from '@platform/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { futuresApi } from '../../../api/futures.ts';
import { errorMessage } from '../../../lib/error-message.ts';
import { newClientOrderId } from '../../trade/order-form.ts';
import { futuresKeys } from '../futures-queries.ts';

export const closingSide = (position: FuturesPosition) => (position.side === 'long' ? 'sell' : 'buy');

/** The whole position at market: a close_position order (reduce-only, its size follows the position). */
export function closeAtMarketRequest(position: FuturesPosition): PlaceFuturesOrderRequest {
  return {
    market: position.market,
    side: closingSide(position),
    type: 'market',
    close_position: true,
    reduce_only: true,
    client_order_id: newClientOrderId(),
  };
}

/** Part or all of the position at a limit price, reduce-only. */
export function closeAtLimitRequest(
  position: FuturesPosition,
  price: string,
  quantity: string,
): PlaceFuturesOrderRequest {
  return {
    market: position.market,
    side: closingSide(position),
    type: 'limit',
    price,
    quantity,
    time_in_force: 'GTC',
    reduce_only: true,
    client_order_id: newClientOrderId(),
  };
}

export function useClosePosition() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (position: FuturesPosition) => futuresApi.placeOrder(closeAtMarketRequest(position)),
    onSuccess: () => {
      toast.success(t('futures.positions.closed'));
      void queryClient.invalidateQueries({ queryKey: futuresKeys.all });
    },
    onError: (error) => {
      toast.error(errorMessage(error, t, 'errors.failedToPlaceOrder'));
    },
  });
}
