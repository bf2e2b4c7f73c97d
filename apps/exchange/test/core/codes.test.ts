import { readFileSync } from 'node:fs';
import t from 'tap';
import { ACCEPTED, RESULT, resultName } from '../../src/core/codes.ts';

// The spec's names, as spec/exchange.md ("Errors" and the success results) spells them.
const SPEC_NAMES = [
  'CANCEL_SUCCESS',
  'CANNOT_CANCEL_ALREADY_MATCHED',
  'INVALID_MSG_TYPE',
  'INVALID_ORDER',
  'MATCH_SUCCESS',
  'OUT_OF_ORDER',
];

t.test('the code table holds exactly the spec names, each with its own number', async (t) => {
  t.same(Object.keys(RESULT).sort(), SPEC_NAMES);
  const codes = Object.values(RESULT);
  t.equal(new Set([...codes, ACCEPTED]).size, codes.length + 1, 'codes and ACCEPTED are distinct');
  for (const name of SPEC_NAMES) t.equal(resultName(RESULT[name as keyof typeof RESULT]), name);
  t.throws(() => resultName(99), RangeError);
});

t.test('the README documents every code', async (t) => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  for (const name of SPEC_NAMES) t.ok(readme.includes(`\`${name}\``), `${name} is in the README`);
});
