import t from 'tap';
import { readFileSync } from 'node:fs';
import { RESULT } from '../src/core/codes.ts';
import {
  ENGINE_RESULT_ERRORS,
  LAYER_RANGES,
  engineResultError,
  exchangeError,
  exchangeErrors,
} from '../src/errors.ts';

const SECTIONS: Record<string, string> = {
  Gateway: 'gateway',
  Orders: 'orders',
  Risk: 'risk',
  Wallet: 'wallet',
  Matching: 'matching',
};

t.test('ERRORS.md documents exactly the exchangeErrors table, each code under its layer', async (t) => {
  const doc = readFileSync(new URL('../ERRORS.md', import.meta.url), 'utf8');
  const rows: Array<{ code: string; status: number; title: string; number: number; layer: string }> = [];
  let layer = '';
  for (const line of doc.split('\n')) {
    const heading = /^## (\w+)/.exec(line);
    if (heading) layer = SECTIONS[heading[1]!] ?? `unknown section ${heading[1]}`;
    const row = /^\| `([A-Z_]+)` *\| (\d{3}) *\| ([^|]+?) *\| (\d+) *\|/.exec(line);
    if (row)
      rows.push({ code: row[1]!, status: Number(row[2]), title: row[3]!, number: Number(row[4]), layer });
  }
  const table = Object.entries(exchangeErrors.table).map(([code, spec]) => ({ code, ...spec }));
  t.same(rows, table);
});

t.test('every number lies in its layer range, and numbers are unique', async (t) => {
  const numbers = new Set<number>();
  for (const [code, spec] of Object.entries(exchangeErrors.table)) {
    const [low, high] = LAYER_RANGES[spec.layer];
    t.ok(spec.number >= low && spec.number <= high, `${code} ${spec.number} in ${spec.layer}`);
    t.notOk(numbers.has(spec.number), `${code}'s number is unique`);
    numbers.add(spec.number);
    t.match(code, /^EX_[A-Z_]+$/);
  }
});

t.test('each engine reject result maps to a matching-layer code named after it', async (t) => {
  const rejects = [
    RESULT.OUT_OF_ORDER,
    RESULT.INVALID_ORDER,
    RESULT.INVALID_MSG_TYPE,
    RESULT.CANNOT_CANCEL_ALREADY_MATCHED,
  ];
  t.same(Object.keys(ENGINE_RESULT_ERRORS).map(Number).sort(), [...rejects].sort());
  for (const code of rejects) {
    const error = engineResultError(code, 'x', { expectedSeq: 7 });
    t.equal(exchangeErrors.table[error.code as keyof typeof exchangeErrors.table].layer, 'matching');
    t.equal(`EX_${error.extra.result as string}`, error.code);
    t.equal(error.extra.expectedSeq, 7);
  }
  t.equal(engineResultError(RESULT.CANNOT_CANCEL_ALREADY_MATCHED, 'gone').status, 409);
});

t.test('exchangeError carries the number', async (t) => {
  const error = exchangeError('EX_RISK_DAILY_CAP', 'cap', { limit: 5 });
  t.equal(error.status, 422);
  t.same(error.extra, { number: 3001, limit: 5 });
});
