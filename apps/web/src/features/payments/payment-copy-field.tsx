import clsx from 'clsx';
import { Check, Copy } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** How long the button says "Copied" after a copy. */
const COPIED_FEEDBACK_MS = 2_000;

/** Writes text to the clipboard; falls back to a hidden selection where the async API is missing. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no permission, not a secure context): try the old way below.
  }
  try {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  } catch {
    return false;
  }
}

interface CopyFieldProps {
  label: string;
  value: string;
  /** Long values (BOLT11 invoices) wrap over several lines instead of one. */
  multiline?: boolean;
  /** Emphasised (a memo or tag the deposit is lost without). */
  tone?: 'default' | 'warning';
  testId?: string;
}

/**
 * A value to copy (an address, a memo, an invoice): monospace, selectable as a whole, with a copy
 * button that says so when it worked (politely announced to screen readers).
 */
export function CopyField({ label, value, multiline = false, tone = 'default', testId }: CopyFieldProps) {
  const { t } = useTranslation();
  const labelId = useId();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    if (!(await copyText(value))) return;
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
  };

  return (
    <div className={clsx('field', tone === 'warning' && 'copy-field-warning')} data-testid={testId}>
      <span className="field-label" id={labelId}>
        {label}
      </span>
      <div className="copy-field-box">
        <output
          className={clsx('copy-field-value mono', multiline && 'copy-field-multiline')}
          aria-labelledby={labelId}
          data-testid={testId ? `${testId}-value` : undefined}
        >
          {value}
        </output>
        <button
          type="button"
          className={clsx('copy-field-button', copied && 'copied')}
          onClick={() => void copy()}
          aria-label={t('wallet.payment.copyLabel', { label })}
          title={t('wallet.payment.copyLabel', { label })}
          data-testid={testId ? `${testId}-copy` : undefined}
        >
          {copied ? <Check size={15} aria-hidden="true" /> : <Copy size={15} aria-hidden="true" />}
          <span>{copied ? t('common.copied') : t('common.copy')}</span>
        </button>
      </div>
      <span className="visually-hidden" aria-live="polite">
        {copied ? t('wallet.payment.copied', { label }) : ''}
      </span>
    </div>
  );
}

/** A small copy button for a value shown elsewhere (a reference in a list of facts). */
export function CopyIconButton({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const name = copied ? t('wallet.payment.copied', { label }) : t('wallet.payment.copyLabel', { label });
  return (
    <button
      type="button"
      className={clsx('icon-button icon-button-sm copy-icon-button', copied && 'copied')}
      aria-label={name}
      title={name}
      onClick={() =>
        void copyText(value).then((done) => {
          if (!done) return;
          setCopied(true);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
        })
      }
    >
      {copied ? <Check size={14} aria-hidden="true" /> : <Copy size={14} aria-hidden="true" />}
    </button>
  );
}
