import t from 'tap';
import { AnswerText, answerHead } from '../../src/http/fast-front-answer.ts';
import { JSON_TYPE, PROBLEM_TYPE } from '../../src/http/fast-outcomes.ts';
import type { PlainAnswer } from '../../src/http/fast-route-types.ts';

/** The Date header of an answer's text (AnswerText reads the clock itself). */
const dateOf = (text: string) => /\r\nDate: ([^\r]+)\r\n/.exec(text)![1]!;

t.test(
  'a plain 200 JSON answer’s prepared head is answerHead’s, byte for byte, given as an answer or its body alone',
  (t) => {
    const text = new AnswerText(72);
    for (const body of ['{"user_info":{"user_id":"p1","score":3,"rank":1}}', '{"name":"Zoë"}', '']) {
      const answer = { status: 200, type: JSON_TYPE, body, headers: undefined };
      const written = text.of(answer)!;
      t.equal(written, answerHead(answer, dateOf(written), 72)! + body, JSON.stringify(body));
      const bodyAlone = text.of(body)!;
      t.equal(
        bodyAlone,
        answerHead(answer, dateOf(bodyAlone), 72)! + body,
        'the body alone: the same answer',
      );
    }
    t.end();
  },
);

t.test('other answers take answerHead: a status, a type or headers of their own, a refused header', (t) => {
  const text = new AnswerText(5);
  const answers: PlainAnswer[] = [
    { status: 503, type: PROBLEM_TYPE, body: '{"code":"X"}', headers: { 'Retry-After': '1' } },
    { status: 200, type: JSON_TYPE, body: '{}', headers: { 'idempotent-replayed': 'true' } },
    { status: 404, type: JSON_TYPE, body: '{}', headers: undefined },
  ];
  for (const answer of answers) {
    const written = text.of(answer)!;
    t.equal(written, answerHead(answer, dateOf(written), 5)! + answer.body);
  }
  t.equal(text.of({ status: 200, type: JSON_TYPE, body: '{}', headers: { 'x-bad': 'a\r\nb' } }), undefined);
  t.end();
});
