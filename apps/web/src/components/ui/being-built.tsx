import { Hammer } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/** The honest state of a screen whose feature arrives in a later release: no fake data. */
export function BeingBuilt({ detail }: { detail?: string }) {
  const { t } = useTranslation();
  return (
    <section className="being-built" aria-live="polite">
      <span className="being-built-icon" aria-hidden="true">
        <Hammer size={22} />
      </span>
      <div>
        <p className="being-built-badge">{t('beingBuilt.badge')}</p>
        <p className="being-built-body">{t('beingBuilt.body')}</p>
        {detail ? <p className="being-built-detail">{detail}</p> : null}
      </div>
    </section>
  );
}
