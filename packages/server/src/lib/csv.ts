import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

// CSV exports (docs/product/device-sets.md#exports, docs/decisions/2026-11-26-csv-exports.md):
// RFC 4180 text, UTF-8 with a byte order mark, CRLF line ends, streamed to the reply a page at a
// time. Readable.from pulls the next page only when the socket has taken the previous ones
// (backpressure), so an export of any size holds one page in memory; a client that goes away
// ends the walk (the stream is destroyed, the generator returned).

/** The byte order mark: spreadsheet programs read the file as UTF-8 only with it. */
export const CSV_BOM = '\uFEFF';

/** Rows per page of an export's keyset walk. */
export const CSV_PAGE_ROWS = 1_000;

/**
 * Characters that make a spreadsheet read a cell as a formula (or, tab and CR, hide one): a cell
 * of text starting with one is prefixed with a single quote, which spreadsheets show as text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Text a spreadsheet will not run: a leading formula character is escaped with `'`. */
export const neutralise = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

/**
 * One cell: empty for null, ISO 8601 for a date, numbers and booleans as they are (a negative
 * number is data, not a formula), text neutralised, then quoted when it holds a comma, a quote or
 * a line break (quotes doubled).
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) {
    return '';
  }
  if (value instanceof Date) {
    return value.toISOString();
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  const text = neutralise(typeof value === 'string' ? value : JSON.stringify(value));
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, CRLF-terminated. */
export const csvLine = (cells: readonly unknown[]): string => `${cells.map(csvCell).join(',')}\r\n`;

export type CsvExport = {
  /** the download's name, without a path; `.csv` is appended when missing */
  filename: string;
  header: readonly string[];
  /** the records, a page at a time (pages of CSV_PAGE_ROWS or fewer) */
  pages: AsyncIterable<readonly (readonly unknown[])[]>;
};

/** The export's text, a page at a time: BOM and header first, then one chunk per page. */
export async function* csvChunks(exp: Pick<CsvExport, 'header' | 'pages'>): AsyncGenerator<string> {
  yield CSV_BOM + csvLine(exp.header);
  for await (const page of exp.pages) {
    if (page.length > 0) {
      yield page.map(csvLine).join('');
    }
  }
}

/**
 * The rows of a keyset walk, a page at a time: `fetch` reads the page after a key (null: the
 * first), `keyOf` names the last row's key; the walk ends at a short page.
 */
export async function* keysetPages<T, K>(
  fetch: (after: K | null, limit: number) => Promise<T[]>,
  keyOf: (last: T) => K,
  limit = CSV_PAGE_ROWS,
): AsyncGenerator<T[]> {
  let after: K | null = null;
  for (;;) {
    const rows = await fetch(after, limit);
    if (rows.length > 0) {
      yield rows;
    }
    const last = rows.at(-1);
    if (rows.length < limit || last === undefined) {
      return;
    }
    after = keyOf(last);
  }
}

/** Maps each page of rows to records. */
export async function* mapPages<T>(
  pages: AsyncIterable<T[]>,
  toRecord: (row: T) => readonly unknown[],
): AsyncGenerator<(readonly unknown[])[]> {
  for await (const page of pages) {
    yield page.map(toRecord);
  }
}

/** Does the request ask for CSV (`Accept: text/csv`)? */
export const wantsCsv = (accept: string | undefined): boolean =>
  typeof accept === 'string' && /(^|,)\s*text\/csv\b/i.test(accept);

/** `<base>-YYYY-MM-DD.csv`, with anything but letters, digits, dot, dash and underscore replaced. */
export function csvFilename(base: string, at = new Date()): string {
  const safe = base.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'export';
  return `${safe}-${at.toISOString().slice(0, 10)}.csv`;
}

/** The chunks again, the first one already read. */
async function* startingWith(first: string, rest: AsyncGenerator<string>): AsyncGenerator<string> {
  yield first;
  yield* rest;
}

/**
 * Streams the export as the reply (the route returns what this returns). The header and the
 * first page are read before anything is sent, so a failure there is an ordinary error answer;
 * one later can only end the download early (the connection is closed, the file incomplete).
 */
export async function sendCsv(reply: FastifyReply, exp: CsvExport): Promise<FastifyReply> {
  const filename = exp.filename.endsWith('.csv') ? exp.filename : `${exp.filename}.csv`;
  const chunks = csvChunks(exp);
  const head = await chunks.next();
  const firstPage = await chunks.next();
  const first = (head.done ? '' : head.value) + (firstPage.done ? '' : firstPage.value);
  const stream = Readable.from(startingWith(first, chunks), { objectMode: false, highWaterMark: 64 * 1024 });
  return reply
    .header('Content-Type', 'text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`)
    .header('Cache-Control', 'no-store')
    .send(stream);
}
