import clsx from 'clsx';
import { type InputHTMLAttributes, type ReactNode, useId } from 'react';

interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: ReactNode;
  error?: string | undefined;
  ref?: React.Ref<HTMLInputElement>;
}

export function CheckboxField({ label, error, className, id, ref, ...input }: CheckboxFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  return (
    <div className={clsx('checkbox-field', error && 'field-invalid', className)}>
      <div className="checkbox-row">
        <input
          ref={ref}
          id={inputId}
          type="checkbox"
          className="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${inputId}-error` : undefined}
          {...input}
        />
        <label htmlFor={inputId} className="checkbox-label">
          {label}
        </label>
      </div>
      {error ? (
        <p id={`${inputId}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
