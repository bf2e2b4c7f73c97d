import t from 'tap';
import { documentedErrors, tableErrors } from '@tessera/testkit';
import { ProblemError, defineErrors, kitErrors, problemBody } from '../src/errors.ts';

t.test('factories build coded problem errors', async (t) => {
  const lb = defineErrors({ LB_UNKNOWN_PLAYER: { status: 404, title: 'Unknown player' } });
  const error = lb.LB_UNKNOWN_PLAYER('no player 42', { playerId: 42 }, { 'x-a': 'b' });
  t.type(error, ProblemError);
  t.type(error, Error);
  t.equal(error.name, 'ProblemError');
  t.equal(error.code, 'LB_UNKNOWN_PLAYER');
  t.equal(error.status, 404);
  t.equal(error.message, 'LB_UNKNOWN_PLAYER: no player 42');
  t.same(error.headers, { 'x-a': 'b' });
  t.same(lb.table, { LB_UNKNOWN_PLAYER: { status: 404, title: 'Unknown player' } });
  t.same(problemBody(error), {
    playerId: 42,
    title: 'Unknown player',
    detail: 'no player 42',
    status: 404,
    code: 'LB_UNKNOWN_PLAYER',
  });
});

t.test('extra members cannot override the standard ones', async (t) => {
  const body = problemBody(kitErrors.KIT_NOT_FOUND('gone', { status: 200, code: 'X', hint: 'h' }));
  t.same(body, { hint: 'h', title: 'Not found', detail: 'gone', status: 404, code: 'KIT_NOT_FOUND' });
});

t.test('"table" cannot be a code', async (t) => {
  t.throws(() => defineErrors({ table: { status: 400, title: 'x' } }), /reserved/);
});

t.test('ERRORS.md documents exactly the kitErrors table', async (t) => {
  t.same(documentedErrors(new URL('../ERRORS.md', import.meta.url), 'KIT_'), tableErrors(kitErrors));
});
