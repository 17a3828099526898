import type { Order } from '@platform/contracts';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';
import { Modal } from '../../components/ui/modal.tsx';
import { useFocusRescue } from '../../hooks/use-focus-rescue.ts';
import { pairSymbol } from '../../lib/format.ts';
import { usePreferences } from '../../state/preferences-store.ts';
import { usePairs } from '../market-data/index.ts';
import { ModifyOrderDialog } from './modify-order-dialog.tsx';
import { canModify } from './modify-order-form.ts';
import { useOrderActions } from './order-actions.ts';
import {
  ColumnHeadings,
  FilledAmount,
  NarrowOrderCells,
  NumberCell,
  StackedHeading,
  StatusCell,
  WideOrderCells,
} from './order-cells.tsx';
import { formatExact, formatOrderPrice, openOrderTotal, type PairsById, pairsById } from './order-format.ts';
import { useOpenOrders } from './order-queries.ts';
import { OrdersTable } from './orders-table.tsx';
import { undoCancel, usePendingCancels } from './pending-cancels.ts';
import '../../theme/preferences.css';
import { TableBody } from './table-states.tsx';

/** The open orders of one pair (or all when `pairId` is null), live, with cancel, cancel all and modify. */
export function OpenOrdersPanel({ pairId }: { pairId: string | null }) {
  const { t } = useTranslation();
  const query = useOpenOrders();
  const pairs = pairsById(usePairs().data);
  const actions = useOrderActions();
  const [modifyingId, setModifyingId] = useState<string | null>(null);
  const [confirmingAll, setConfirmingAll] = useState(false);
  const cancelMode = usePreferences((state) => state.cancelMode);
  const [confirmingId, setConfirmingId] = useState<string | null>(null);
  const orders = useMemo(
    () => (query.data?.orders ?? []).filter((order) => pairId === null || order.trading_pair === pairId),
    [query.data, pairId],
  );
  // The order being modified, as it is now: the dialog closes when it fills or is cancelled meanwhile.
  const modifying = modifyingId === null ? undefined : orders.find((order) => order.id === modifyingId);
  // Likewise the order whose cancel is being confirmed.
  const confirming = confirmingId === null ? undefined : orders.find((order) => order.id === confirmingId);
  const heldTotal = query.data?.pagination.total ?? 0;
  const heldCount = query.data?.orders.length ?? 0;
  const rootRef = useRef<HTMLDivElement>(null);
  useFocusRescue(rootRef);

  return (
    // The focus falls back here when the row it was in goes (docs/accessibility.md).
    <div ref={rootRef} className="open-orders-panel" tabIndex={-1}>
      <TableBody
        isPending={query.isPending}
        error={query.error}
        hasData={query.data !== undefined}
        isEmpty={orders.length === 0}
        fallbackKey="history.open.failed"
        onRetry={() => void query.refetch()}
        empty={pairId ? t('history.open.emptyPair', { pair: pairSymbol(pairId) }) : t('history.open.empty')}
      >
        <OpenOrdersTable
          orders={orders}
          pairs={pairs}
          busyIds={actions.busyIds}
          onCancel={(order) => (cancelMode === 'confirm' ? setConfirmingId(order.id) : actions.cancelLater(order))}
          onModify={(order) => setModifyingId(order.id)}
          onCancelAll={() => setConfirmingAll(true)}
        />
        {heldTotal > heldCount ? (
          <p className="orders-note muted">{t('history.open.truncated', { shown: heldCount, total: heldTotal })}</p>
        ) : null}
      </TableBody>
      {modifying ? (
        <ModifyOrderDialog
          order={modifying}
          pair={pairs.get(modifying.trading_pair)}
          onSave={actions.modify}
          onClose={() => setModifyingId(null)}
        />
      ) : null}
      <CancelAllDialog
        open={confirmingAll && orders.length > 0}
        count={orders.length}
        scope={pairId ? pairSymbol(pairId) : t('history.open.cancelAllScopeAll')}
        onConfirm={() => {
          setConfirmingAll(false);
          // Cancels waiting for their undo go now with the rest.
          for (const order of orders) undoCancel(order.id);
          void actions.cancelAll(orders.filter((order) => !actions.busyIds.has(order.id)));
        }}
        onClose={() => setConfirmingAll(false)}
      />
      {confirming ? (
        <CancelOneDialog
          order={confirming}
          price={formatOrderPrice(confirming.price, confirming.trading_pair, pairs.get(confirming.trading_pair))}
          onConfirm={() => {
            setConfirmingId(null);
            void actions.cancel(confirming);
          }}
          onClose={() => setConfirmingId(null)}
        />
      ) : null}
    </div>
  );
}

export function OpenOrdersTable({
  orders,
  pairs,
  busyIds,
  onCancel,
  onModify,
  onCancelAll,
}: {
  orders: readonly Order[];
  pairs: PairsById;
  busyIds: ReadonlySet<string>;
  onCancel: (order: Order) => void;
  onModify: (order: Order) => void;
  onCancelAll: () => void;
}) {
  const { t } = useTranslation();
  const allBusy = orders.every((order) => busyIds.has(order.id));
  const cancelAll = (
    <th scope="col" className="orders-actions-cell">
      <span className="visually-hidden">{t('history.columns.actions')}</span>
      <button
        type="button"
        className="orders-link-button"
        onClick={onCancelAll}
        disabled={allBusy}
        data-testid="orders-cancel-all"
      >
        {t('history.open.cancelAll')}
      </button>
    </th>
  );
  return (
    <OrdersTable
      testId="open-orders-table"
      headings={(narrow) =>
        narrow ? (
          <>
            <StackedHeading top={t('history.columns.pair')} bottom={t('history.columns.sideTypeTime')} />
            <StackedHeading top={t('history.columns.price')} bottom={t('history.columns.stopPrice')} num />
            <StackedHeading top={t('history.columns.amount')} bottom={t('history.columns.filled')} num />
            {cancelAll}
          </>
        ) : (
          <>
            <ColumnHeadings
              columns={['time', 'pair', 'side', 'type', 'price', 'stopPrice', 'amount', 'filled', 'total', 'status']}
            />
            {cancelAll}
          </>
        )
      }
      rows={(narrow) =>
        orders.map((order) => (
          <OpenOrderRow
            key={order.id}
            order={order}
            pairs={pairs}
            busy={busyIds.has(order.id)}
            narrow={narrow}
            onCancel={onCancel}
            onModify={onModify}
          />
        ))
      }
    />
  );
}

function OpenOrderRow({
  order,
  pairs,
  busy,
  narrow,
  onCancel,
  onModify,
}: {
  order: Order;
  pairs: PairsById;
  busy: boolean;
  narrow: boolean;
  onCancel: (order: Order) => void;
  onModify: (order: Order) => void;
}) {
  const { t } = useTranslation();
  const pair = pairs.get(order.trading_pair);
  const sendAt = usePendingCancels((state) => state.sendAt[order.id]);
  const secondsLeft = useSecondsLeft(sendAt);
  const describe = {
    side: t(`history.sides.${order.side}`),
    amount: formatExact(order.quantity ?? order.quote_amount),
    pair: pairSymbol(order.trading_pair),
  };
  return (
    <tr
      data-testid="open-order-row"
      data-order-id={order.id}
      className={sendAt === undefined ? undefined : 'orders-row-cancelling'}
    >
      {narrow ? (
        <NarrowOrderCells
          order={order}
          priceLines={[
            formatOrderPrice(order.price, order.trading_pair, pair),
            formatOrderPrice(order.stop_price, order.trading_pair, pair),
          ]}
        />
      ) : (
        <>
          <WideOrderCells order={order} pairs={pairs} />
          <NumberCell>{formatExact(order.quantity)}</NumberCell>
          <td className="num tabular">
            <FilledAmount order={order} />
          </td>
          <NumberCell>{openOrderTotal(order, pair)}</NumberCell>
          <StatusCell status={order.status} />
        </>
      )}
      <td className="orders-actions-cell">
        <div className="orders-row-actions">
          {canModify(order) ? (
            <button
              type="button"
              className="orders-row-button"
              onClick={() => onModify(order)}
              disabled={busy || sendAt !== undefined}
              aria-label={t('history.open.modifyLabel', describe)}
              data-testid={`order-modify-${order.id}`}
            >
              {t('history.open.modify')}
            </button>
          ) : null}
          {sendAt !== undefined ? (
            <button
              type="button"
              className="orders-row-button orders-row-button-undo"
              onClick={() => undoCancel(order.id)}
              // Named by what it shows (WCAG 2.5.3); which order, and when it goes, is its description.
              title={t('history.open.undoLabel', { ...describe, seconds: secondsLeft })}
              data-testid={`order-undo-${order.id}`}
            >
              {t('history.open.undo', { seconds: secondsLeft })}
            </button>
          ) : (
            <button
              type="button"
              className="orders-row-button orders-row-button-danger"
              onClick={() => onCancel(order)}
              disabled={busy}
              aria-busy={busy || undefined}
              aria-label={t('history.open.cancelLabel', describe)}
              data-testid={`order-cancel-${order.id}`}
            >
              {t('history.open.cancel')}
            </button>
          )}
        </div>
      </td>
    </tr>
  );
}

function CancelAllDialog({
  open,
  count,
  scope,
  onConfirm,
  onClose,
}: {
  open: boolean;
  count: number;
  scope: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Modal open={open} onClose={onClose} labelledBy={titleId} maxWidthPx={420} testId="orders-cancel-all-dialog">
      <div className="orders-confirm">
        <h2 id={titleId} className="orders-modify-title">
          {t('history.open.cancelAllTitle')}
        </h2>
        <p className="muted">{t('history.open.cancelAllBody', { count, scope })}</p>
        <div className="orders-modify-actions">
          <Button variant="secondary" onClick={onClose}>
            {t('history.open.keep')}
          </Button>
          <Button variant="danger" onClick={onConfirm} data-testid="orders-cancel-all-confirm">
            {t('history.open.cancelAllConfirm')}
          </Button>
        </div>
      </div>
    </Modal>
  );
}

/** Whole seconds until `sendAt` (rounded up), ticking while there is one. */
function useSecondsLeft(sendAt: number | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (sendAt === undefined) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [sendAt]);
  return sendAt === undefined ? 0 : Math.max(0, Math.ceil((sendAt - now) / 1000));
}

/** Settings > Preferences "Ask me to confirm first": one order's cancel, after a yes. */
function CancelOneDialog({
  order,
  price,
  onConfirm,
  onClose,
}: {
  order: Order;
  price: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Modal open onClose={onClose} labelledBy={titleId} maxWidthPx={420} testId="order-cancel-dialog">
      <div className="orders-confirm">
        <h2 id={titleId} className="orders-modify-title">
          {t('history.open.cancelOneTitle')}
        </h2>
        <p className="muted">
          {t('history.open.cancelOneBody', {
            side: t(`history.sides.${order.side}`),
            amount: formatExact(order.quantity ?? order.quote_amount),
            pair: pairSymbol(order.trading_pair),
            price,
          })}
        </p>
        <div className="orders-modify-actions">
          <Button variant="secondary" onClick={onClose}>
            {t('history.open.keepOne')}
          </Button>
          <Button variant="danger" onClick={onConfirm} data-testid="order-cancel-confirm">
            {t('history.open.cancelOneConfirm')}
          </Button>
        </div>
      </div>
    </Modal>
  );
}
