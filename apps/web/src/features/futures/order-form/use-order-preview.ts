import type { FuturesOrderPreview, PlaceFuturesOrderRequest } from '@platform/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { futuresApi } from '../../../api/futures.ts';

/** How long the form must rest before the preview is asked. */
export const PREVIEW_DEBOUNCE_MS = 300;

export interface OrderPreviewResult {
  preview: FuturesOrderPreview | undefined;
  /** True while the answer shown is not yet the one for the form as it is. */
  pending: boolean;
  error: unknown;
}

function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/**
 * POST /v1/futures/orders/preview for the form's request, once the form has rested: the answer of
 * an earlier form is never shown for a later one (each body is its own query, and the client order
 * id is left out so typing the same order again reuses the answer).
 */
export function useOrderPreview(request: PlaceFuturesOrderRequest | null, enabled: boolean): OrderPreviewResult {
  const body = request ? withoutClientId(request) : null;
  const key = body ? JSON.stringify(body) : null;
  const settledKey = useDebounced(key, PREVIEW_DEBOUNCE_MS);
  const query = useQuery({
    queryKey: ['futures', 'preview', settledKey],
    queryFn: () => futuresApi.previewOrder(JSON.parse(settledKey ?? '{}') as PlaceFuturesOrderRequest),
    enabled: enabled && settledKey !== null && settledKey === key,
    retry: false,
    staleTime: 2_000,
  });
  const current = settledKey === key && key !== null;
  return {
    preview: current ? query.data : undefined,
    pending: key !== null && (!current || query.isFetching),
    error: current ? query.error : null,
  };
}

function withoutClientId(request: PlaceFuturesOrderRequest): PlaceFuturesOrderRequest {
  const { client_order_id: _ignored, ...rest } = request;
  return rest;
}
