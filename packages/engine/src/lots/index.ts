/** Cost-basis (lot) accounting: lots, FIFO/LIFO/HIFO disposals, realised and unrealised P&L, the tax report. */
export * from './api.ts';
export * from './csv.ts';
export * from './lot-book.ts';
export { LOT_BOOK_SNAPSHOT_VERSION, type LotBookSnapshot } from './snapshot.ts';
export * from './tax-report.ts';
export * from './valuation.ts';
