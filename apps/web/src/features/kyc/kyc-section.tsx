import type { KycStatusResponse, KycSubmission } from '@platform/contracts';
import { BadgeCheck, CircleCheck, Clock, FileCheck2, RotateCcw, ShieldAlert, ShieldQuestion } from 'lucide-react';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import { useAppStore } from '../../state/app-store.ts';
import type { Tone } from '../../theme/status.ts';
import { StatusBadge } from '../payments/payment-card.tsx';
import type { StatusTone } from '../payments/payment-model.ts';
import { formatDateTime } from '../wallet/history-model.ts';
import { LoadFailed, LoadingLines } from '../wallet/load-states.tsx';
import { countryOptions } from './kyc-countries.ts';
import { formatUsdLimit, type KycView, kycFormDefaults, kycView, VERIFIED_DAILY_LIMIT_USD } from './kyc-form.ts';
import { useKycStatus, useKycSubmission } from './kyc-queries.ts';
import { KycStepper } from './kyc-stepper.tsx';

const viewIcon: Record<KycView, ReactNode> = {
  unverified: <ShieldQuestion size={22} aria-hidden="true" />,
  pending: <Clock size={22} aria-hidden="true" />,
  approved: <BadgeCheck size={22} aria-hidden="true" />,
  rejected: <ShieldAlert size={22} aria-hidden="true" />,
};

/** The icon's tone; unverified is a call to act (info), where its badge is neutral. */
const viewIconTone: Record<KycView, Tone> = {
  unverified: 'info',
  pending: 'warning',
  approved: 'success',
  rejected: 'danger',
};

const viewTone: Record<KycView, StatusTone> = {
  unverified: 'neutral',
  pending: 'pending',
  approved: 'completed',
  rejected: 'failed',
};

/**
 * Spec §2.7 KYC Verification tab: the account's verification status first (GET /api/v1/kyc/status),
 * with the daily withdrawal limit it allows and what verification raises it to; the three-step form
 * when the account may submit (at once when it never did, on request after a rejection); the latest
 * submission's details (GET /v1/triple-a/kyc/{id}) otherwise.
 */
export function KycSection() {
  const { t } = useTranslation();
  const status = useKycStatus();
  const [resubmitting, setResubmitting] = useState(false);
  const [formRound, setFormRound] = useState(0);

  if (status.isPending) {
    return (
      <div className="wallet-sections" data-testid="kyc-section">
        <LoadingCard />
      </div>
    );
  }
  if (status.isError && !status.data) {
    return (
      <div className="wallet-sections" data-testid="kyc-section">
        <section className="wallet-card">
          <LoadFailed
            message={errorMessage(status.error, t, 'wallet.kyc.errors.statusFailed')}
            onRetry={() => void status.refetch()}
          />
        </section>
      </div>
    );
  }

  const data = status.data;
  const view = kycView(data);
  const latest = data.latest_submission;
  const formOpen = data.can_submit && (view === 'unverified' || (view === 'rejected' && resubmitting));

  return (
    <div className="wallet-sections" data-testid="kyc-section">
      <KycStatusCard
        status={data}
        view={view}
        formOpen={formOpen}
        onSubmitAgain={() => {
          setFormRound((round) => round + 1);
          setResubmitting(true);
        }}
      />
      {formOpen ? (
        <KycFormLoader
          key={formRound}
          previousId={view === 'rejected' ? (latest?.id ?? null) : null}
          onSubmitted={() => setResubmitting(false)}
          onCancel={view === 'rejected' ? () => setResubmitting(false) : undefined}
        />
      ) : latest ? (
        <KycSubmissionDetails id={latest.id} fallback={latest} />
      ) : null}
    </div>
  );
}

function KycStatusCard({
  status,
  view,
  formOpen,
  onSubmitAgain,
}: {
  status: KycStatusResponse;
  view: KycView;
  formOpen: boolean;
  onSubmitAgain: () => void;
}) {
  const { t } = useTranslation();
  const latest = status.latest_submission;
  const submittedAt = latest ? formatDateTime(latest.submitted_at) : null;
  const currentLimit = formatUsdLimit(status.daily_withdrawal_limit_usd);
  const raisedLimit = formatUsdLimit(VERIFIED_DAILY_LIMIT_USD);

  return (
    <section
      className="wallet-card kyc-status"
      aria-labelledby="kyc-status-title"
      data-testid="kyc-status"
      data-status={view}
    >
      <div className="kyc-status-main">
        <span className="kyc-status-icon" data-tone={viewIconTone[view]}>
          {viewIcon[view]}
        </span>
        <div className="kyc-status-text">
          <div className="kyc-status-heading">
            <h2 id="kyc-status-title" className="wallet-card-title">
              {t(`wallet.kyc.status.${view}.title`)}
            </h2>
            <StatusBadge tone={viewTone[view]} testId="kyc-status-badge">
              {t(`wallet.kyc.status.${view}.badge`)}
            </StatusBadge>
          </div>
          <p className="wallet-card-description">
            {view === 'pending' && submittedAt
              ? t('wallet.kyc.status.pending.body', { date: `${submittedAt.date} ${submittedAt.time}` })
              : t(`wallet.kyc.status.${view}.body`)}
          </p>
        </div>
      </div>

      {view === 'rejected' ? (
        <div className="kyc-reason" data-testid="kyc-reason">
          <span className="kyc-reason-label">{t('wallet.kyc.status.rejected.reason')}</span>
          <p>{latest?.reason || t('wallet.kyc.status.rejected.noReason')}</p>
        </div>
      ) : null}

      <dl className="kyc-limits">
        <div className="kyc-limit">
          <dt>{t('wallet.kyc.limits.current')}</dt>
          <dd className="tabular" data-testid="kyc-limit-current">
            {currentLimit}
            <span className="kyc-limit-unit">{t('wallet.kyc.limits.perDay')}</span>
          </dd>
        </div>
        {view !== 'approved' ? (
          <div className="kyc-limit kyc-limit-next">
            <dt>{t('wallet.kyc.limits.afterVerification')}</dt>
            <dd className="tabular" data-testid="kyc-limit-verified">
              {raisedLimit}
              <span className="kyc-limit-unit">{t('wallet.kyc.limits.perDay')}</span>
            </dd>
          </div>
        ) : (
          <div className="kyc-limit">
            <dt>{t('wallet.kyc.limits.tier')}</dt>
            <dd>{t('wallet.kyc.limits.verifiedTier')}</dd>
          </div>
        )}
      </dl>

      {view === 'rejected' && status.can_submit && !formOpen ? (
        <div>
          <Button
            onClick={onSubmitAgain}
            icon={<RotateCcw size={15} aria-hidden="true" />}
            data-testid="kyc-submit-again"
          >
            {t('wallet.kyc.status.rejected.submitAgain')}
          </Button>
        </div>
      ) : null}
    </section>
  );
}

function LoadingCard() {
  return (
    <section className="wallet-card" aria-busy="true">
      <LoadingLines busy={false} />
    </section>
  );
}

/** The form, filled from the account, or from the rejected submission's details when they load. */
function KycFormLoader({
  previousId,
  onSubmitted,
  onCancel,
}: {
  previousId: string | null;
  onSubmitted: () => void;
  onCancel?: (() => void) | undefined;
}) {
  const { t } = useTranslation();
  const account = useAppStore((state) => state.user);
  const previous = useKycSubmission(previousId);
  if (previousId && previous.isPending) return <LoadingCard />;
  // Without the details (they failed to load) the form starts from the account, which is fine.
  const defaults = kycFormDefaults(account, previous.data ?? null);
  return (
    <div className="kyc-form-layout">
      <KycStepper defaultValues={defaults} onSubmitted={onSubmitted} onCancel={onCancel} />
      <aside className="wallet-card kyc-aside" aria-labelledby="kyc-aside-title">
        <h2 id="kyc-aside-title" className="kyc-aside-title">
          {t('wallet.kyc.aside.title')}
        </h2>
        <ul className="kyc-aside-list">
          {(['document', 'photos', 'address', 'review'] as const).map((item) => (
            <li key={item}>
              <CircleCheck size={16} aria-hidden="true" className="kyc-aside-icon" />
              <span>{t(`wallet.kyc.aside.${item}`)}</span>
            </li>
          ))}
        </ul>
      </aside>
    </div>
  );
}

/** What the latest submission said (the document number masked by the server), read from GET /kyc/{id}. */
function KycSubmissionDetails({ id, fallback }: { id: string; fallback: KycSubmission }) {
  const { t, i18n } = useTranslation();
  const details = useKycSubmission(id);
  const submission = details.data ?? fallback;
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  const country = countries.find((option) => option.code === submission.country)?.name ?? submission.country;
  const when = (iso: string | null) => {
    if (!iso) return t('wallet.kyc.details.notYet');
    const { date, time } = formatDateTime(iso);
    return `${date} ${time}`;
  };
  const rows: { label: string; value: ReactNode; testId?: string }[] = [
    { label: t('wallet.kyc.details.submitted'), value: when(submission.submitted_at) },
    { label: t('wallet.kyc.details.reviewed'), value: when(submission.reviewed_at) },
    { label: t('wallet.kyc.details.name'), value: `${submission.first_name} ${submission.last_name}` },
    { label: t('wallet.kyc.fields.email'), value: submission.email },
    { label: t('wallet.kyc.fields.phone'), value: submission.phone },
    { label: t('wallet.kyc.fields.dateOfBirth'), value: submission.date_of_birth },
    {
      label: t('wallet.kyc.details.address'),
      value: `${submission.address}, ${submission.postal_code} ${submission.city}, ${country}`,
    },
    {
      label: t('wallet.kyc.details.document'),
      value: (
        <>
          {t(`wallet.kyc.documentTypes.${submission.document_type}`)}{' '}
          <span className="mono" data-testid="kyc-document-number">
            {submission.document_number}
          </span>
        </>
      ),
    },
    {
      label: t('wallet.kyc.details.files'),
      value: (
        <span className="kyc-file-list">
          {submission.documents.map((slot) => (
            <span key={slot} className="kyc-file-chip">
              <FileCheck2 size={13} aria-hidden="true" />
              {t(`wallet.kyc.files.${slot}`)}
            </span>
          ))}
        </span>
      ),
    },
  ];

  return (
    <section className="wallet-card" aria-labelledby="kyc-details-title" data-testid="kyc-details">
      <header className="wallet-card-header">
        <div>
          <h2 id="kyc-details-title" className="wallet-card-title">
            {t('wallet.kyc.details.title')}
          </h2>
          <p className="wallet-card-description">{t('wallet.kyc.details.description')}</p>
        </div>
      </header>
      {details.isError && !details.data ? (
        <p className="wallet-note" role="status">
          {errorMessage(details.error, t, 'wallet.kyc.errors.detailsFailed')}
        </p>
      ) : null}
      <dl className="kyc-details" aria-busy={details.isFetching || undefined}>
        {rows.map((row) => (
          <div key={row.label} className="kyc-detail">
            <dt>{row.label}</dt>
            <dd>{row.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
