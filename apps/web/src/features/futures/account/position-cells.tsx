import { sign } from '@platform/money';
import clsx from 'clsx';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toAmount } from '../../../lib/format.ts';
import { formatRatePercent, formatSignedUsd } from '../futures-format.ts';
import { ratioWidthPercent, riskLevel } from '../position-maths.ts';

/** A table cell that carries its heading, so the narrow layout can write it in front of the value. */
export function Cell({
  label,
  children,
  testId,
  className,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
  className?: string;
}) {
  return (
    <td data-label={label} data-testid={testId} className={className}>
      {children}
    </td>
  );
}

function tone(value: string | null | undefined): 'up' | 'down' | undefined {
  const amount = value ? toAmount(value) : null;
  if (!amount) return undefined;
  const direction = sign(amount);
  return direction > 0 ? 'up' : direction < 0 ? 'down' : undefined;
}

/** '+12.34 USD (+5.20%)', green for a gain, red for a loss. */
export function PnlText({ pnl, roe, testId }: { pnl: string; roe?: string; testId?: string }) {
  return (
    <span className={clsx('tabular', tone(pnl))} data-testid={testId}>
      {formatSignedUsd(pnl)} USD
      {roe !== undefined ? <span className="fut-roe"> ({signedPercent(roe)})</span> : null}
    </span>
  );
}

function signedPercent(rate: string): string {
  const text = formatRatePercent(rate, 2);
  return text.startsWith('-') ? text : `+${text}`;
}

/** Maintenance / margin balance as a bar: green under 50 %, amber to 80 %, red above (liquidation at 100 %). */
export function MarginRatioBar({ ratio, testId }: { ratio: string; testId?: string }) {
  const { t } = useTranslation();
  const level = riskLevel(ratio);
  const width = ratioWidthPercent(ratio);
  return (
    <span className={clsx('fut-ratio', `fut-risk-${level}`)} data-testid={testId} data-risk={level}>
      <span className="fut-ratio-track" aria-hidden="true">
        <span className="fut-ratio-fill" style={{ width: `${width}%` }} />
      </span>
      <span className="tabular">{formatRatePercent(ratio, 2)}</span>
      <span className="visually-hidden">{t(`futures.positions.risk.${level}`)}</span>
    </span>
  );
}

/** The auto-deleverage queue as five lights, lit up to the rank (5 = first to be deleveraged). */
export function AdlLights({ rank, testId }: { rank: number; testId?: string }) {
  const { t } = useTranslation();
  return (
    <span
      className="fut-adl"
      role="img"
      aria-label={t('futures.positions.adlRank', { rank })}
      data-testid={testId}
      data-rank={rank}
    >
      {[1, 2, 3, 4, 5].map((light) => (
        <span key={light} className={clsx('fut-adl-light', light <= rank && 'lit', light <= rank && `lit-${rank}`)} />
      ))}
    </span>
  );
}
