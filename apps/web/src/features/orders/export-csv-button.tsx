import { Download } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import { csvFileName, downloadCsv } from './history-csv.ts';

export interface CsvExport {
  text: string;
  count: number;
  truncated: boolean;
}

/** Builds the file of the rows matching the filters (`build` reads every page) and downloads it. */
export function ExportCsvButton({
  kind,
  disabled,
  build,
}: {
  kind: 'orders' | 'trades';
  disabled: boolean;
  build: () => Promise<CsvExport>;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const file = await build();
      downloadCsv(csvFileName(kind, new Date()), file.text);
      if (file.truncated) toast(t('history.export.truncated', { count: file.count }));
      else toast.success(t('history.export.done', { count: file.count }));
    } catch (error) {
      toast.error(errorMessage(error, t, 'history.export.failed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="secondary"
      size="sm"
      icon={<Download size={14} aria-hidden="true" />}
      loading={busy}
      disabled={disabled}
      onClick={() => void run()}
      data-testid="history-export-csv"
    >
      {busy ? t('history.export.exporting') : t('history.export.button')}
    </Button>
  );
}
