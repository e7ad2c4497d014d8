/**
 * A table as a CSV file a spreadsheet opens as it is (RFC 4180): UTF-8 with a byte-order mark (so
 * accents survive a double click in Excel), CRLF line ends, a cell quoted when it holds a comma, a
 * quote or a line break. Text typed by anyone is never read as a formula: a cell starting with = + -
 * @, a tab or a carriage return is prefixed with an apostrophe (OWASP's advice for CSV injection).
 * Numbers are written as plain numbers.
 */

export type CsvCell = string | number | null;

const BYTE_ORDER_MARK = '\uFEFF';
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: a number as written, text defused and quoted as needed, nothing as empty. */
export function csvCell(cell: CsvCell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  const text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The whole file: a byte-order mark, then each row on its own CRLF-ended line. */
export function toCsv(rows: readonly (readonly CsvCell[])[]): string {
  return BYTE_ORDER_MARK + rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}

/**
 * A file name safe in any header and on any system: the words of `name` in lower-case ASCII joined by
 * hyphens (accents dropped, anything else removed), at most 60 characters, `fallback` when none is left.
 */
export function safeFileName(name: string, extension: string, fallback = 'export'): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `${words || fallback}.${extension}`;
}

/** `attachment; filename="…"` for a name made by safeFileName (nothing in it needs escaping). */
export const attachment = (fileName: string): string => `attachment; filename="${fileName}"`;
