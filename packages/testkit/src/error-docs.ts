/**
 * Every package's error table is documented in a markdown table (`| \`CODE\` | status | title |`);
 * this reads the document so a test can hold the two in step, as fastify does with its errors.
 */
import { readFileSync } from 'node:fs';

export interface DocumentedError {
  readonly code: string;
  readonly status: number;
  readonly title: string;
}

/** The rows of the markdown error tables in `file` whose first cell is a `CODE` with `prefix`. */
export function documentedErrors(file: string | URL, prefix: string): DocumentedError[] {
  const doc = readFileSync(file, 'utf8');
  const rows = [...doc.matchAll(/^\| `([A-Z][A-Z0-9_]+)` *\| (\d{3}) *\| ([^|]+?) *\|/gm)];
  return rows
    .map((m) => ({ code: m[1] ?? '', status: Number(m[2]), title: m[3] ?? '' }))
    .filter((row) => row.code.startsWith(prefix));
}

/** The table of a `defineErrors` result, in the same shape, for comparison with the document. */
export function tableErrors(errors: {
  readonly table: Readonly<Record<string, { status: number; title: string }>>;
}): DocumentedError[] {
  return Object.entries(errors.table).map(([code, spec]) => ({
    code,
    status: spec.status,
    title: spec.title,
  }));
}
