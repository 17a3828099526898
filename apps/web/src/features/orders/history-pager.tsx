import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { pageCount } from './order-format.ts';

/** Previous / Next, "Page X of Y" and the number of rows matching. */
export function HistoryPager({
  page,
  limit,
  total,
  busy,
  onPage,
  hideSinglePage = false,
}: {
  page: number;
  limit: number;
  total: number;
  busy: boolean;
  onPage: (page: number) => void;
  /** Leave out the page controls when everything fits on one page (the compact tabs). */
  hideSinglePage?: boolean;
}) {
  const { t } = useTranslation();
  const pages = pageCount(total, limit);
  return (
    <nav className="orders-pager" aria-label={t('history.pager.label')} aria-busy={busy || undefined}>
      <span className="muted tabular" data-testid="history-total">
        {t('history.pager.total', { count: total })}
      </span>
      {hideSinglePage && pages <= 1 ? null : (
        <div className="orders-pager-controls">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={page <= 1}
            onClick={() => onPage(Math.min(page - 1, pages))}
            data-testid="history-page-prev"
          >
            <ChevronLeft size={14} aria-hidden="true" className="flip-rtl" />
            {t('history.pager.previous')}
          </button>
          <span className="tabular" aria-live="polite" data-testid="history-page">
            {t('history.pager.page', { page: Math.min(page, pages), pages })}
          </span>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={page >= pages}
            onClick={() => onPage(page + 1)}
            data-testid="history-page-next"
          >
            {t('history.pager.next')}
            <ChevronRight size={14} aria-hidden="true" className="flip-rtl" />
          </button>
        </div>
      )}
    </nav>
  );
}
