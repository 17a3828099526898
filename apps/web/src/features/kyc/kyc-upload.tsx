import clsx from 'clsx';
import { ImageUp, LoaderCircle, Trash2 } from 'lucide-react';
import { type DragEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFileSize } from './kyc-files.ts';

export interface KycUploadProps {
  label: string;
  hint: string;
  required: boolean;
  file: File | null;
  previewUrl: string | null;
  /** Shown under the box in the §5 words ('File size too large', 'Invalid file type', 'Document front is required'). */
  error: string | null;
  checking: boolean;
  onSelect: (file: File) => void;
  onRemove: () => void;
  testId: string;
  inputRef?: (element: HTMLInputElement | null) => void;
}

/**
 * One document or selfie picture: a drop zone with a file input (keyboard: the input itself takes
 * the focus, its box shows it), the picked image's preview, its name and size, and a remove button.
 */
export function KycUpload({
  label,
  hint,
  required,
  file,
  previewUrl,
  error,
  checking,
  onSelect,
  onRemove,
  testId,
  inputRef,
}: KycUploadProps) {
  const { t } = useTranslation();
  const inputId = useId();
  const labelId = `${inputId}-label`;
  const messageId = `${inputId}-message`;
  const input = useRef<HTMLInputElement | null>(null);
  const [dragging, setDragging] = useState(false);

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) onSelect(dropped);
  };

  return (
    <div className={clsx('kyc-upload', error && 'field-invalid')} data-testid={testId}>
      <div className="kyc-upload-head">
        <span className="field-label" id={labelId}>
          {label}
        </span>
        <span className={clsx('kyc-upload-tag', required && 'kyc-upload-tag-required')}>
          {required ? t('wallet.kyc.files.required') : t('wallet.kyc.files.optional')}
        </span>
      </div>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping a file is a mouse shortcut; the file input inside is the keyboard path */}
      <div
        className={clsx('kyc-drop', dragging && 'kyc-drop-active', file && 'kyc-drop-filled')}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <div className="kyc-preview" aria-hidden={previewUrl ? undefined : true}>
          {checking ? (
            <LoaderCircle size={22} className="spin" aria-hidden="true" />
          ) : previewUrl ? (
            <img src={previewUrl} alt={t('wallet.kyc.files.preview', { label })} />
          ) : (
            <ImageUp size={22} aria-hidden="true" />
          )}
        </div>
        <div className="kyc-drop-text">
          {file ? (
            <>
              <span className="kyc-file-name" title={file.name}>
                {file.name}
              </span>
              <span className="kyc-file-meta tabular">{formatFileSize(file.size)}</span>
            </>
          ) : (
            <>
              <span className="kyc-drop-title">{t('wallet.kyc.files.dropHere')}</span>
              <span className="kyc-file-meta">{hint}</span>
            </>
          )}
        </div>
        <div className="kyc-drop-actions">
          <label className="btn btn-secondary btn-sm" htmlFor={inputId}>
            {file ? t('wallet.kyc.files.replace') : t('wallet.kyc.files.choose')}
          </label>
          {file ? (
            <button
              type="button"
              className="icon-button icon-button-sm"
              onClick={() => {
                if (input.current) input.current.value = '';
                onRemove();
              }}
              aria-label={t('wallet.kyc.files.remove', { label })}
              title={t('wallet.kyc.files.remove', { label })}
              data-testid={`${testId}-remove`}
            >
              <Trash2 size={15} aria-hidden="true" />
            </button>
          ) : null}
        </div>
        <input
          ref={(element) => {
            input.current = element;
            inputRef?.(element);
          }}
          id={inputId}
          type="file"
          className="visually-hidden kyc-file-input"
          accept="image/png,image/jpeg,.png,.jpg,.jpeg"
          aria-labelledby={labelId}
          aria-describedby={messageId}
          aria-invalid={error ? true : undefined}
          required={required}
          data-testid={`${testId}-input`}
          onChange={(event) => {
            const picked = event.target.files?.[0];
            if (picked) onSelect(picked);
            // The same file can be picked again after a fix (the change event needs a new value).
            event.target.value = '';
          }}
        />
      </div>
      {error ? (
        <p id={messageId} className="field-error" role="alert">
          {error}
        </p>
      ) : (
        <p id={messageId} className="visually-hidden">
          {hint}
        </p>
      )}
    </div>
  );
}
