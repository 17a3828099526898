import clsx from 'clsx';
import { type ReactNode, type SelectHTMLAttributes, useId } from 'react';
import { FieldMessage } from './text-field.tsx';

interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  error?: string | undefined;
  hint?: ReactNode | undefined;
  ref?: React.Ref<HTMLSelectElement>;
}

/** A labelled select with its error or hint under it, like TextField. */
export function SelectField({ label, error, hint, children, className, id, ref, ...select }: SelectFieldProps) {
  const generatedId = useId();
  const selectId = id ?? generatedId;
  const messageId = `${selectId}-message`;
  return (
    <div className={clsx('field', error && 'field-invalid', className)}>
      <label className="field-label" htmlFor={selectId}>
        {label}
      </label>
      <select
        ref={ref}
        id={selectId}
        className="input select"
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? messageId : undefined}
        {...select}
      >
        {children}
      </select>
      <FieldMessage id={messageId} error={error} hint={hint} />
    </div>
  );
}
