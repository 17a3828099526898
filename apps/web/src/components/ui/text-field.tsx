import clsx from 'clsx';
import { type InputHTMLAttributes, type ReactNode, useId } from 'react';

interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  /** Rendered inside the input box at the end (a show-password toggle). */
  trailing?: ReactNode;
  ref?: React.Ref<HTMLInputElement>;
}

export function TextField({ label, error, hint, trailing, className, id, ref, ...input }: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const messageId = `${inputId}-message`;
  return (
    <div className={clsx('field', error && 'field-invalid', className)}>
      <label className="field-label" htmlFor={inputId}>
        {label}
      </label>
      <div className="field-control">
        <input
          ref={ref}
          id={inputId}
          className={clsx('input', trailing ? 'input-with-trailing' : undefined)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error || hint ? messageId : undefined}
          {...input}
        />
        {trailing ? <span className="field-trailing">{trailing}</span> : null}
      </div>
      <FieldMessage id={messageId} error={error} hint={hint} />
    </div>
  );
}

/**
 * What a field says under its control: its error (announced), else its hint, else nothing. The
 * control points at `id` with aria-describedby whenever there is either.
 */
export function FieldMessage({
  id,
  error,
  hint,
}: {
  id: string;
  error?: ReactNode | undefined;
  hint?: ReactNode | undefined;
}) {
  if (error) {
    return (
      <p id={id} className="field-error" role="alert">
        {error}
      </p>
    );
  }
  if (hint) {
    return (
      <p id={id} className="field-hint">
        {hint}
      </p>
    );
  }
  return null;
}
