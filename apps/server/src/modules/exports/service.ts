import type { ExportKind } from '@platform/contracts';
import type { KeysetPage, TimeWindow } from '../../lib/keyset.ts';
import type { ConversionRecord } from '../conversions/index.ts';
import type { FuturesFill, FuturesTransfer } from '../futures/index.ts';
import type { DepositRecord } from '../payments/index.ts';
import type { SpotFill } from '../trading/index.ts';
import type { UserTransfer } from '../wallet/index.ts';
import type { WithdrawalRecord } from '../withdrawals/index.ts';
import { mergedChunks, pagedRecords } from './merge.ts';
import {
  conversionRecord,
  depositRecord,
  futuresFillRecord,
  futuresTransferRecord,
  HEADERS,
  spotFillRecord,
  userTransferRecord,
  withdrawalRecord,
} from './records.ts';

/**
 * Rows read per page, and records written per chunk: a page of 1,000 rows is a few hundred
 * kilobytes at most, small enough to hold, large enough that the per-query cost is a small part of
 * the whole (100 pages for 100,000 fills).
 */
export const EXPORT_PAGE_ROWS = 1_000;

/** The histories an export reads, each from its owning module's service, in keyset pages. */
export type ExportSources = {
  spotFills: KeysetPage<SpotFill>;
  futuresFills: KeysetPage<FuturesFill>;
  conversions: KeysetPage<ConversionRecord>;
  userTransfers: KeysetPage<UserTransfer>;
  futuresTransfers: KeysetPage<FuturesTransfer>;
  deposits: KeysetPage<DepositRecord>;
  withdrawals: KeysetPage<WithdrawalRecord>;
};

export type ExportDeps = { sources: ExportSources; pageRows: number };

/**
 * The CSV text of one export of the account, in chunks, oldest row first: the header, then every
 * row of the window, read page by page as the response is written (nothing is read ahead of what
 * the client takes: a Readable pulls the next chunk only when the socket drains).
 */
export function exportCsv(
  deps: ExportDeps,
  kind: ExportKind,
  accountId: string,
  window: TimeWindow,
): AsyncGenerator<string, void, undefined> {
  const { sources, pageRows } = deps;
  const read = <Row extends { cursor: { at: string; key: string } }>(
    page: KeysetPage<Row>,
    encode: (row: Row) => string,
  ) => pagedRecords(page, accountId, window, pageRows, encode);
  switch (kind) {
    case 'trades':
      return mergedChunks(
        HEADERS.trades,
        [
          read(sources.spotFills, spotFillRecord),
          read(sources.futuresFills, futuresFillRecord),
          read(sources.conversions, conversionRecord),
        ],
        pageRows,
      );
    case 'transfers':
      return mergedChunks(
        HEADERS.transfers,
        [read(sources.userTransfers, userTransferRecord), read(sources.futuresTransfers, futuresTransferRecord)],
        pageRows,
      );
    case 'deposits':
      return mergedChunks(HEADERS.deposits, [read(sources.deposits, depositRecord)], pageRows);
    case 'withdrawals':
      return mergedChunks(HEADERS.withdrawals, [read(sources.withdrawals, withdrawalRecord)], pageRows);
  }
}
