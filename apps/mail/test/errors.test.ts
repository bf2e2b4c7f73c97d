import t from 'tap';
import { readFileSync } from 'node:fs';
import { ProblemError } from '@tessera/kit';
import { mailErrors } from '../src/errors.ts';

t.test('ERRORS.md documents exactly the mailErrors table', async (t) => {
  const doc = readFileSync(new URL('../ERRORS.md', import.meta.url), 'utf8');
  const rows = [...doc.matchAll(/^\| `([A-Z_]+)` *\| (\d{3}) *\| ([^|]+?) *\|/gm)].map((m) => ({
    code: m[1],
    status: Number(m[2]),
    title: m[3],
  }));
  const table = Object.entries(mailErrors.table).map(([code, spec]) => ({ code, ...spec }));
  t.same(rows, table);
});

t.test('every code is MAIL_-prefixed and builds a problem error', async (t) => {
  for (const code of Object.keys(mailErrors.table) as (keyof typeof mailErrors.table)[]) {
    t.match(code, /^MAIL_[A-Z_]+$/);
    const error = mailErrors[code]('detail');
    t.type(error, ProblemError);
    t.equal(error.code, code);
  }
});
