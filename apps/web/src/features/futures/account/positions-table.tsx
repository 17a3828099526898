import type { FuturesMarket, FuturesPosition } from '@platform/contracts';
import clsx from 'clsx';
import { Pencil } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFuturesPrice, formatSize, formatUsd, marketLabel, marketPrecision } from '../futures-format.ts';
import { usePositions } from '../futures-queries.ts';
import { EmptyState, LoadState } from '../load-state.tsx';
import { AdlLights, Cell, MarginRatioBar, PnlText } from './position-cells.tsx';
import { type PositionAction, PositionDialogs } from './position-dialogs.tsx';
import { useClosePosition } from './use-close-position.ts';

/** The open positions, live at the mark; close at market or limit, TP/SL, isolated margin. */
export function PositionsPanel({ markets }: { markets: readonly FuturesMarket[] }) {
  const { t } = useTranslation();
  const query = usePositions();
  const [action, setAction] = useState<PositionAction | null>(null);
  if (!query.data) return <LoadState failed={query.isError} onRetry={() => void query.refetch()} />;
  if (query.data.length === 0)
    return <EmptyState text={t('futures.positions.empty')} testId="futures-positions-empty" />;
  const marketOf = (id: string) => markets.find((market) => market.id === id);
  return (
    <>
      <table className="fut-table fut-positions" data-testid="futures-positions">
        <PositionsHead />
        <tbody>
          {query.data.map((position) => (
            <PositionRow
              key={position.market}
              position={position}
              market={marketOf(position.market)}
              onAction={setAction}
            />
          ))}
        </tbody>
      </table>
      {action ? (
        <PositionDialogs action={action} market={marketOf(action.position.market)} onClose={() => setAction(null)} />
      ) : null}
    </>
  );
}

function PositionsHead() {
  const { t } = useTranslation();
  const headings = [
    'market',
    'size',
    'entry',
    'mark',
    'liquidation',
    'margin',
    'marginRatio',
    'pnl',
    'adl',
    'tpsl',
    'actions',
  ] as const;
  return (
    <thead>
      <tr>
        {headings.map((heading) => (
          <th key={heading} scope="col">
            {t(`futures.positions.${heading}`)}
          </th>
        ))}
      </tr>
    </thead>
  );
}

interface RowProps {
  position: FuturesPosition;
  market: FuturesMarket | undefined;
  onAction: (action: PositionAction) => void;
}

function PositionRow({ position, market, onAction }: RowProps) {
  const { t } = useTranslation();
  const p = marketPrecision(market);
  const label = (key: string) => t(`futures.positions.${key}` as 'futures.positions.size');
  const testId = (name: string) => `position-${position.market}-${name}`;
  return (
    <tr data-testid={`position-${position.market}`}>
      <Cell label={label('market')}>
        <span className="fut-market-cell">
          <span>
            <span className={clsx('fut-side', position.side === 'long' ? 'up' : 'down')}>
              {t(`futures.positions.${position.side}`)}
            </span>{' '}
            <strong>{marketLabel(position.market, market)}</strong>
          </span>
          <span className="fut-badge" data-testid={testId('mode')}>
            {t(`futures.marginMode.${position.margin_mode}`)} {position.leverage}x
          </span>
        </span>
      </Cell>
      <Cell label={label('size')} testId={testId('size')}>
        {formatSize(position.size, p.size)}
      </Cell>
      <Cell label={label('entry')} testId={testId('entry')}>
        {formatFuturesPrice(position.entry_price, p.price)}
      </Cell>
      <Cell label={label('mark')} testId={testId('mark')}>
        {formatFuturesPrice(position.mark_price, p.price)}
      </Cell>
      <Cell label={label('liquidation')} testId={testId('liquidation')} className="fut-liq">
        {formatFuturesPrice(position.liquidation_price, p.price)}
      </Cell>
      <MarginCell position={position} label={label('margin')} onAction={onAction} />
      <Cell label={label('marginRatio')}>
        <MarginRatioBar ratio={position.margin_ratio} testId={testId('ratio')} />
      </Cell>
      <Cell label={label('pnl')}>
        <PnlText pnl={position.unrealised_pnl} roe={position.roe} testId={testId('pnl')} />
      </Cell>
      <Cell label={label('adl')}>
        <AdlLights rank={position.adl_rank} testId={testId('adl')} />
      </Cell>
      <TpslCell position={position} decimals={p.price} label={label('tpsl')} onAction={onAction} />
      <Cell label={label('actions')}>
        <PositionButtons position={position} onAction={onAction} />
      </Cell>
    </tr>
  );
}

interface EditableCellProps {
  position: FuturesPosition;
  label: string;
  onAction: (action: PositionAction) => void;
}

/** The position's margin; an isolated one can be added to or taken from in place. */
function MarginCell({ position, label, onAction }: EditableCellProps) {
  const { t } = useTranslation();
  return (
    <Cell label={label}>
      <span className="fut-cell-edit">
        <span data-testid={`position-${position.market}-margin`}>{formatUsd(position.margin)} USD</span>
        {position.margin_mode === 'isolated' ? (
          <EditButton
            text={t('futures.positions.addMargin')}
            onClick={() => onAction({ kind: 'margin', position })}
            testId={`margin-${position.market}`}
          />
        ) : null}
      </span>
    </Cell>
  );
}

function TpslCell({ position, decimals, label, onAction }: EditableCellProps & { decimals: number }) {
  const { t } = useTranslation();
  return (
    <Cell label={label}>
      <span className="fut-cell-edit">
        <span data-testid={`position-${position.market}-tpsl`}>
          {formatFuturesPrice(position.take_profit_price, decimals)} /{' '}
          {formatFuturesPrice(position.stop_loss_price, decimals)}
        </span>
        <EditButton
          text={t('futures.positions.editTpsl')}
          onClick={() => onAction({ kind: 'tpsl', position })}
          testId={`tpsl-${position.market}`}
        />
      </span>
    </Cell>
  );
}

/** A small pencil beside a figure the trader can change (TP/SL, isolated margin), as the venues draw it. */
function EditButton({ text, onClick, testId }: { text: string; onClick: () => void; testId: string }) {
  return (
    <button type="button" className="fut-edit-button" onClick={onClick} title={text} data-testid={testId}>
      <Pencil size={13} aria-hidden="true" />
      <span className="visually-hidden">{text}</span>
    </button>
  );
}

function PositionButtons({
  position,
  onAction,
}: {
  position: FuturesPosition;
  onAction: (action: PositionAction) => void;
}) {
  const { t } = useTranslation();
  const close = useClosePosition();
  const button = (text: string, onClick: () => void, testId: string, disabled = false) => (
    <button
      type="button"
      className="btn btn-secondary btn-sm"
      onClick={onClick}
      disabled={disabled}
      data-testid={testId}
    >
      {text}
    </button>
  );
  return (
    <span className="fut-actions">
      {button(
        t('futures.positions.closeMarket'),
        () => close.mutate(position),
        `close-market-${position.market}`,
        close.isPending,
      )}
      {button(
        t('futures.positions.closeLimit'),
        () => onAction({ kind: 'closeLimit', position }),
        `close-limit-${position.market}`,
      )}
    </span>
  );
}
