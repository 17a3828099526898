import { Copy, Download, KeyRound } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';
import { CheckboxField } from '../../components/ui/checkbox-field.tsx';

/** The text file a user downloads: a heading, then one code a line. */
export function recoveryCodesFile(heading: string, codes: readonly string[]): string {
  return `${heading}\n\n${codes.join('\n')}\n`;
}

/**
 * Recovery codes, the one time they are shown (2FA just turned on, or codes renewed). The panel
 * stays until the user says they saved them: closing it is the last chance to copy them.
 */
export function RecoveryCodesNotice({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const [saved, setSaved] = useState(false);
  const text = recoveryCodesFile(t('settings.security.recoveryCodes.fileHeading'), codes);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(t('settings.security.recoveryCodes.copied'));
    } catch {
      // No clipboard (insecure context, denied): the codes stay on screen to copy by hand.
    }
  };

  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = t('settings.security.recoveryCodes.fileName');
    link.click();
    URL.revokeObjectURL(url);
  };

  return (
    <div className="recovery-notice" data-testid="recovery-codes">
      <div className="security-block-head">
        <span className="status-icon" data-tone="warning" aria-hidden="true">
          <KeyRound size={18} />
        </span>
        <div>
          <h3 className="security-block-title">{t('settings.security.recoveryCodes.title')}</h3>
          <p className="muted">{t('settings.security.recoveryCodes.description')}</p>
        </div>
      </div>
      <ol className="recovery-codes" aria-label={t('settings.security.recoveryCodes.listLabel')}>
        {codes.map((code) => (
          <li key={code} className="recovery-code" data-testid="recovery-code-item">
            {code}
          </li>
        ))}
      </ol>
      <div className="recovery-actions">
        <Button variant="secondary" size="sm" icon={<Copy size={14} />} onClick={copy}>
          {t('settings.security.recoveryCodes.copy')}
        </Button>
        <Button variant="secondary" size="sm" icon={<Download size={14} />} onClick={download}>
          {t('settings.security.recoveryCodes.download')}
        </Button>
      </div>
      <CheckboxField
        label={t('settings.security.recoveryCodes.saved')}
        checked={saved}
        data-testid="recovery-codes-saved"
        onChange={(event) => setSaved(event.target.checked)}
      />
      <Button disabled={!saved} onClick={onDone} data-testid="recovery-codes-done">
        {t('settings.security.recoveryCodes.done')}
      </Button>
    </div>
  );
}
