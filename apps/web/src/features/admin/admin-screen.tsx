import { ArrowLeft } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BeingBuilt } from '../../components/ui/being-built.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';

/** Spec §2.1: the admin area has its own layout, outside the main shell. */
export function Component() {
  const { t } = useTranslation();
  return (
    <div className="admin-layout">
      <header className="admin-bar">
        <span className="brand-mark" aria-hidden="true">
          M
        </span>
        <span className="brand-name">
          {t('app.name')} · {t('nav.admin')}
        </span>
        <Link to="/" className="btn btn-ghost btn-sm admin-back">
          <ArrowLeft size={16} aria-hidden="true" className="flip-rtl" />
          {t('pages.admin.back')}
        </Link>
      </header>
      <main className="page">
        <div className="screen">
          <PageHeader title={t('pages.admin.title')} description={t('pages.admin.description')} />
          <BeingBuilt />
        </div>
      </main>
    </div>
  );
}
