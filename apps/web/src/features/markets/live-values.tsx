import { compare } from '@platform/money';
import clsx from 'clsx';
import { Star } from 'lucide-react';
import { type MouseEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPercent, percentDirection, toAmount } from '../../lib/format.ts';
import { formatPairPrice, formatPairPriceFull } from '../../lib/number-format.ts';
import { isCompressed } from '../../lib/subscript-zeros.ts';

/** How long a changed price stays highlighted. */
const FLASH_MS = 800;

/** Up when the new price is higher, down when lower, null when unchanged or unreadable. */
export function priceMove(previous: string | null, next: string | null): 'up' | 'down' | null {
  const before = toAmount(previous);
  const after = toAmount(next);
  if (!before || !after) return null;
  const order = compare(after, before);
  return order > 0 ? 'up' : order < 0 ? 'down' : null;
}

/** A price that flashes green or red for a moment when it changes. */
export function LivePrice({
  price,
  quoteCurrency,
  testId,
  className,
  pricePrecision,
}: {
  price: string | null;
  quoteCurrency: string;
  testId?: string;
  className?: string;
  /** The pair's price precision: the price is shown at its tick when known. */
  pricePrecision?: number | undefined;
}) {
  const previous = useRef(price);
  const [flash, setFlash] = useState<{ move: 'up' | 'down'; key: number } | null>(null);
  useEffect(() => {
    const move = priceMove(previous.current, price);
    previous.current = price;
    if (!move) return;
    setFlash((current) => ({ move, key: (current?.key ?? 0) + 1 }));
    const timer = setTimeout(() => setFlash(null), FLASH_MS);
    return () => clearTimeout(timer);
  }, [price]);
  const text = formatPairPrice(price, quoteCurrency, pricePrecision);
  return (
    <span
      key={flash?.key ?? 0}
      className={clsx('live-price tabular', flash && `flash-${flash.move}`, className)}
      data-testid={testId}
      title={isCompressed(text) ? formatPairPriceFull(price, quoteCurrency, pricePrecision) : undefined}
      data-price={price ?? undefined}
    >
      {text}
    </span>
  );
}

/** '+1.23%' in green, '-0.50%' in red (spec §5 format). */
export function ChangeText({ value, testId, pill = false }: { value: string | null; testId?: string; pill?: boolean }) {
  const direction = percentDirection(value);
  return (
    <span
      className={clsx('change tabular', pill && 'change-pill', direction > 0 && 'up', direction < 0 && 'down')}
      data-testid={testId}
    >
      {formatPercent(value)}
    </span>
  );
}

/** The favourites star (the watchlist, on the account or in this browser). */
export function FavouriteButton({
  pairId,
  symbol,
  active,
  onToggle,
}: {
  pairId: string;
  symbol: string;
  active: boolean;
  onToggle: (pairId: string) => void;
}) {
  const { t } = useTranslation();
  const label = active ? t('markets.unfavourite', { pair: symbol }) : t('markets.favourite', { pair: symbol });
  const onClick = (event: MouseEvent) => {
    event.stopPropagation();
    onToggle(pairId);
  };
  return (
    <button
      type="button"
      className={clsx('favourite-button', active && 'active')}
      aria-pressed={active}
      aria-label={label}
      title={label}
      onClick={onClick}
      data-testid={`favourite-${pairId}`}
    >
      <Star size={15} aria-hidden="true" fill={active ? 'currentColor' : 'none'} />
    </button>
  );
}
