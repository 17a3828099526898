import { type FuturesPosition, futuresOrderSchema, markPriceSchema, positionUpdateSchema } from '@platform/contracts';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getMarketData } from '../market-data/index.ts';
import { useSignedInAccountId } from '../wallet/use-wallet.ts';
import { futuresKeys } from './futures-queries.ts';
import { revalueMarket } from './position-maths.ts';

/**
 * The futures screen's live channels: `mark.{MARKET}` (mark_update) moves the mark and the open
 * positions' unrealised P&L at once; the user channels `positions` (position_update) and
 * `futures_orders` (futures_order_update) patch or re-read the account's lists. Each listener reads
 * its message loosely and parses the payload with the contract's schema, so a message the socket
 * does not know is simply not acted on (the polls of futures-queries.ts carry on).
 */

export const POSITIONS_CHANNEL = 'positions';
export const FUTURES_ORDERS_CHANNEL = 'futures_orders';
export const markChannel = (market: string) => `mark.${market}`;

interface LooseMessage {
  type: string;
  payload?: unknown;
}

export function applyMarkUpdate(queryClient: QueryClient, accountId: string | null, payload: unknown): void {
  const mark = markPriceSchema.safeParse(payload);
  if (!mark.success) return;
  queryClient.setQueryData(futuresKeys.mark(mark.data.market), mark.data);
  if (accountId === null) return;
  queryClient.setQueryData<FuturesPosition[]>(futuresKeys.positions(accountId), (positions) =>
    positions ? revalueMarket(positions, mark.data.market, mark.data.mark_price) : positions,
  );
}

export function applyPositionUpdate(queryClient: QueryClient, accountId: string, payload: unknown): void {
  const update = positionUpdateSchema.safeParse(payload);
  if (!update.success) return;
  const { market, position, account } = update.data;
  queryClient.setQueryData(futuresKeys.account(accountId), account);
  queryClient.setQueryData<FuturesPosition[]>(futuresKeys.positions(accountId), (positions = []) => {
    const others = positions.filter((candidate) => candidate.market !== market);
    return position ? [...others, position] : others;
  });
}

function useMarkChannel(market: string, accountId: string | null) {
  const queryClient = useQueryClient();
  useEffect(() => {
    const { socket } = getMarketData();
    return socket.subscribe(markChannel(market), (message) => {
      const loose = message as LooseMessage;
      if (loose.type === 'mark_update') applyMarkUpdate(queryClient, accountId, loose.payload);
    });
  }, [market, accountId, queryClient]);
}

function useUserChannels(accountId: string | null) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (accountId === null) return;
    const { socket } = getMarketData();
    const refresh = () => void queryClient.invalidateQueries({ queryKey: futuresKeys.mine(accountId) });
    const leavePositions = socket.subscribe(POSITIONS_CHANNEL, (message) => {
      const loose = message as LooseMessage;
      if (loose.type === 'subscribed') refresh();
      if (loose.type === 'position_update') applyPositionUpdate(queryClient, accountId, loose.payload);
    });
    const leaveOrders = socket.subscribe(FUTURES_ORDERS_CHANNEL, (message) => {
      const loose = message as LooseMessage;
      if (loose.type === 'subscribed') refresh();
      if (loose.type === 'futures_order_update' && futuresOrderSchema.safeParse(loose.payload).success) refresh();
    });
    return () => {
      leavePositions();
      leaveOrders();
    };
  }, [accountId, queryClient]);
}

export function useFuturesLive(market: string): void {
  const accountId = useSignedInAccountId();
  useMarkChannel(market, accountId);
  useUserChannels(accountId);
}
