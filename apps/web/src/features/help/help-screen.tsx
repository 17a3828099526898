import { SUPPORT_EMAIL_REPLY_HOURS } from '@platform/contracts';
import { BookOpen, LifeBuoy, Receipt } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../components/ui/page-header.tsx';

export function Component() {
  const { t } = useTranslation();
  const topics = [
    {
      path: '/help/trading',
      icon: BookOpen,
      title: t('pages.helpTrading.title'),
      body: t('pages.helpTrading.description'),
    },
    { path: '/help/fees', icon: Receipt, title: t('pages.helpFees.title'), body: t('pages.helpFees.description') },
    { path: '/support', icon: LifeBuoy, title: t('pages.support.title'), body: t('pages.support.description') },
  ];
  return (
    <div className="screen">
      <PageHeader title={t('pages.help.title')} description={t('pages.help.description')} />
      <section aria-label={t('pages.help.topics')} className="card-grid">
        {topics.map((topic) => (
          <Link key={topic.path} to={topic.path} className="card card-link">
            <topic.icon size={20} aria-hidden="true" className="card-icon" />
            <span className="card-title">{topic.title}</span>
            <span className="card-body">{topic.body}</span>
          </Link>
        ))}
      </section>
      <p className="muted">{t('pages.help.supportHours', { hours: SUPPORT_EMAIL_REPLY_HOURS })}</p>
    </div>
  );
}
