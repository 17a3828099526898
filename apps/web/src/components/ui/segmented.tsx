import clsx from 'clsx';
import type { ReactNode } from 'react';

interface SegmentedProps<Option extends string> {
  /** What the buttons choose, for a screen reader (the legend is not shown). */
  legend: string;
  options: readonly Option[];
  value: Option;
  onChange: (option: Option) => void;
  label: (option: Option) => ReactNode;
  testId: (option: Option) => string;
  className?: string;
}

/** A row of toggle buttons of which one is pressed: views of a card, kinds of a form. */
export function Segmented<Option extends string>({
  legend,
  options,
  value,
  onChange,
  label,
  testId,
  className,
}: SegmentedProps<Option>) {
  return (
    <fieldset className={clsx('segmented', className)}>
      <legend className="visually-hidden">{legend}</legend>
      {options.map((option) => (
        <button
          key={option}
          type="button"
          className={clsx('segment', value === option && 'active')}
          aria-pressed={value === option}
          onClick={() => onChange(option)}
          data-testid={testId(option)}
        >
          {label(option)}
        </button>
      ))}
    </fieldset>
  );
}
