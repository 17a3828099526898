import { Download } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DownloadedFile } from '../../api/client.ts';
import { exportsApi, type LotMethodName } from '../../api/exports.ts';
import { errorMessage } from '../../lib/error-message.ts';
import {
  EXPORT_KINDS,
  type ExportKind,
  exportPeriod,
  fileName,
  LOT_METHOD_NAMES,
  periodProblem,
  saveFile,
  taxYears,
} from './exports-model.ts';
import '../../theme/portfolio-exports.css';

type Job = ExportKind | 'tax';
type Status = { job: Job; state: 'busy' | 'done' } | { job: Job; state: 'failed'; error: unknown } | null;

/**
 * The CSV downloads of the account (docs/portfolio.md, "Exports"): trades, transfers, deposits and
 * withdrawals of a period, and the realised-gains tax report of a year. One download at a time;
 * each goes with the session's token (so not a plain link) and is saved from memory once complete.
 */
export function ExportsCard() {
  const { t } = useTranslation();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [status, setStatus] = useState<Status>(null);
  const problem = periodProblem(from, to);
  const busy = status?.state === 'busy';

  const run = async (job: Job, fetchFile: () => Promise<DownloadedFile>, fallbackName: string) => {
    setStatus({ job, state: 'busy' });
    try {
      const file = await fetchFile();
      saveFile(file, fileName(file, fallbackName));
      setStatus({ job, state: 'done' });
    } catch (error) {
      setStatus({ job, state: 'failed', error });
    }
  };
  const history = (kind: ExportKind) =>
    void run(kind, () => exportsApi.history(kind, exportPeriod(from, to)), `meridian-${kind}.csv`);
  const tax = (year: number, method: LotMethodName) =>
    void run('tax', () => exportsApi.taxReport(year, method), `realised-gains-${year}-${method}.csv`);

  return (
    <section className="wallet-card pf-exports" aria-labelledby="pf-exports-title" data-testid="portfolio-exports">
      <header className="wallet-card-header">
        <div>
          <h2 id="pf-exports-title" className="wallet-card-title">
            {t('portfolio.exports.title')}
          </h2>
          <p className="wallet-card-description">{t('portfolio.exports.description')}</p>
        </div>
      </header>
      <div className="pf-exports-body">
        <fieldset className="pf-exports-group">
          <legend>{t('portfolio.exports.history')}</legend>
          <PeriodFields from={from} to={to} onFrom={setFrom} onTo={setTo} />
          {problem ? (
            <p className="form-error" role="alert" data-testid="exports-period-error">
              {t(problem)}
            </p>
          ) : null}
          <div className="pf-exports-buttons">
            {EXPORT_KINDS.map((kind) => (
              <button
                key={kind}
                type="button"
                className="btn btn-secondary btn-sm"
                disabled={busy || problem !== null}
                aria-busy={status?.job === kind && busy ? true : undefined}
                title={t('portfolio.exports.download', { name: t(`portfolio.exports.names.${kind}`) })}
                onClick={() => history(kind)}
                data-testid={`export-${kind}`}
              >
                <Download size={16} aria-hidden="true" />
                {t(`portfolio.exports.${kind}`)}
              </button>
            ))}
          </div>
        </fieldset>
        <TaxReportForm busy={busy} onDownload={tax} />
      </div>
      <ExportStatus status={status} />
    </section>
  );
}

function PeriodFields(props: {
  from: string;
  to: string;
  onFrom: (value: string) => void;
  onTo: (value: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <>
      <div className="pf-exports-fields">
        <div className="field">
          <label className="field-label" htmlFor={`${id}-from`}>
            {t('portfolio.exports.from')}
          </label>
          <input
            id={`${id}-from`}
            className="input"
            type="date"
            min="1970-01-01"
            max={props.to || undefined}
            value={props.from}
            onChange={(event) => props.onFrom(event.target.value)}
            data-testid="exports-from"
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-to`}>
            {t('portfolio.exports.to')}
          </label>
          <input
            id={`${id}-to`}
            className="input"
            type="date"
            min={props.from || '1970-01-01'}
            value={props.to}
            onChange={(event) => props.onTo(event.target.value)}
            data-testid="exports-to"
          />
        </div>
      </div>
      <p id="pf-exports-period-hint" className="wallet-card-description">
        {t('portfolio.exports.periodHint')}
      </p>
    </>
  );
}

function TaxReportForm({
  busy,
  onDownload,
}: {
  busy: boolean;
  onDownload: (year: number, method: LotMethodName) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [years] = useState(() => taxYears(new Date()));
  const [year, setYear] = useState(years[0] ?? new Date().getUTCFullYear());
  const [method, setMethod] = useState<LotMethodName>('fifo');
  return (
    <fieldset className="pf-exports-group">
      <legend>{t('portfolio.exports.taxTitle')}</legend>
      <p className="wallet-card-description">{t('portfolio.exports.taxHint')}</p>
      <div className="pf-exports-fields">
        <div className="field">
          <label className="field-label" htmlFor={`${id}-year`}>
            {t('portfolio.exports.year')}
          </label>
          <select
            id={`${id}-year`}
            className="input select"
            value={year}
            onChange={(event) => setYear(Number(event.target.value))}
            data-testid="exports-year"
          >
            {years.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-method`}>
            {t('portfolio.exports.method')}
          </label>
          <select
            id={`${id}-method`}
            className="input select"
            value={method}
            onChange={(event) => setMethod(event.target.value as LotMethodName)}
            data-testid="exports-method"
          >
            {LOT_METHOD_NAMES.map((option) => (
              <option key={option} value={option}>
                {t(`portfolio.exports.methods.${option}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="pf-exports-buttons">
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={busy}
          onClick={() => onDownload(year, method)}
          data-testid="export-tax"
        >
          <Download size={16} aria-hidden="true" />
          {t('portfolio.exports.taxDownload')}
        </button>
      </div>
    </fieldset>
  );
}

/** What the last download is doing, read out as it changes; a failure in words. */
function ExportStatus({ status }: { status: Status }) {
  const { t } = useTranslation();
  if (status?.state === 'failed') {
    return (
      <p className="form-error" role="alert" data-testid="exports-error">
        {errorMessage(status.error, t, 'portfolio.exports.failed')}
      </p>
    );
  }
  const name = status ? t(`portfolio.exports.names.${status.job}`) : '';
  return (
    <p className="pf-exports-status" role="status" aria-live="polite" data-testid="exports-status">
      {status?.state === 'busy' ? t('portfolio.exports.preparing', { name }) : null}
      {status?.state === 'done' ? t('portfolio.exports.done', { name }) : null}
    </p>
  );
}
