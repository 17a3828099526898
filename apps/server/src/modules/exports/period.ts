import type { ExportKind, ExportQuery } from '@platform/contracts';
import type { TimeWindow } from '../../lib/keyset.ts';

/** An export's period: the rows' time window and the name of the file. */
export type ExportPeriod = { window: TimeWindow; filename: string };

/**
 * The end of a YYYY-MM-DD day, UTC ("to" includes its whole day): ISO 8601's 24:00, which the
 * database reads as the next day's start, also after 9999-12-31 (where a computed next day would
 * need a five-digit year).
 */
function endOfDay(day: string): string {
  return `${day}T24:00:00Z`;
}

/**
 * The period of a checked query (contracts' exportQuerySchema: real dates, from <= to). Without
 * `from` the export starts at the first record; without `to` it runs to now, and the file is named
 * after today. The filename holds only digits, dashes and the kind, so it needs no escaping.
 */
export function exportPeriod(kind: ExportKind, query: ExportQuery, now: Date): ExportPeriod {
  const from = query.from ?? null;
  const to = query.to ?? null;
  const window: TimeWindow = {
    from: from === null ? null : `${from}T00:00:00.000Z`,
    until: to === null ? null : endOfDay(to),
  };
  const first = from ?? 'start';
  const last = to ?? now.toISOString().slice(0, 10);
  return { window, filename: `meridian-${kind}-${first}-to-${last}.csv` };
}
