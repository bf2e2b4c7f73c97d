/** RFC 4180 CSV: a header line, then one line per row; fields with a comma, quote or line break are quoted. */
export function toCsv<Row extends object>(
  rows: readonly Row[],
  columns: ReadonlyArray<keyof Row & string>,
): string {
  const field = (value: unknown): string => {
    const text = String(value);
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  const lines = [columns.join(',')];
  for (const row of rows) lines.push(columns.map((c) => field(row[c])).join(','));
  return lines.join('\r\n') + '\r\n';
}
