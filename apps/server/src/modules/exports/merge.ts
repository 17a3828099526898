import type { KeysetCursor, KeysetPage, KeysetRow, TimeWindow } from '../../lib/keyset.ts';

/** One encoded CSV record with the time and key it is ordered by. */
export type TimedRecord = { at: string; key: string; record: string };

/**
 * Reads a history page after page (keyset: each page starts after the last row of the one before)
 * and encodes each row, until a page comes back short. Only one page is held at a time.
 */
export async function* pagedRecords<Row extends KeysetRow>(
  page: KeysetPage<Row>,
  accountId: string,
  window: TimeWindow,
  pageRows: number,
  encode: (row: Row) => string,
): AsyncGenerator<TimedRecord[], void, undefined> {
  let after: KeysetCursor | null = null;
  for (;;) {
    const rows = await page(accountId, window, after, pageRows);
    if (rows.length > 0) yield rows.map((row) => ({ at: row.cursor.at, key: row.cursor.key, record: encode(row) }));
    const last = rows.at(-1);
    if (last === undefined || rows.length < pageRows) return;
    after = last.cursor;
  }
}

type Source = { pages: AsyncIterator<TimedRecord[]>; rows: TimedRecord[]; next: number; done: boolean };

/** Makes sure a source has a row at its head unless it is exhausted. */
async function fill(source: Source): Promise<void> {
  while (!source.done && source.next >= source.rows.length) {
    const read = await source.pages.next();
    if (read.done) source.done = true;
    else {
      source.rows = read.value;
      source.next = 0;
    }
  }
}

/** The source whose head comes first: the earlier time; at equal times, the source listed first. */
function firstHead(sources: readonly Source[]): Source | undefined {
  let best: Source | undefined;
  let bestRow: TimedRecord | undefined;
  for (const source of sources) {
    const row = source.rows[source.next];
    if (row === undefined) continue;
    if (bestRow === undefined || row.at < bestRow.at) {
      best = source;
      bestRow = row;
    }
  }
  return best;
}

/**
 * Merges sources that are each in time order into one stream of CSV text in time order, in chunks
 * of `chunkRows` records: a page of each source and one chunk are all that is held, however long
 * the history. Times are ISO text of a fixed width, so they compare as strings.
 */
export async function* mergedChunks(
  header: string,
  sources: readonly AsyncIterable<TimedRecord[]>[],
  chunkRows: number,
): AsyncGenerator<string, void, undefined> {
  yield header;
  const states: Source[] = sources.map((source) => ({
    pages: source[Symbol.asyncIterator](),
    rows: [],
    next: 0,
    done: false,
  }));
  let chunk: string[] = [];
  for (;;) {
    for (const state of states) await fill(state);
    const source = firstHead(states);
    if (source === undefined) break;
    const row = source.rows[source.next];
    source.next += 1;
    if (row !== undefined) chunk.push(row.record);
    if (chunk.length >= chunkRows) {
      yield chunk.join('');
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk.join('');
}
