import t from 'tap';
import { GTUBE, isSpam, scoreSpam, type SpamInput } from '../../src/core/spam.ts';

const ham: SpamInput = {
  subject: 'Lunch on Friday?',
  text: 'Shall we meet at noon?',
  fromEmail: 'bob@x.io',
  fromName: 'Bob',
};

t.test('ordinary mail scores zero', async (t) => {
  t.same(scoreSpam(ham), { score: 0, hits: [] });
});

t.test('GTUBE always scores as spam', async (t) => {
  const verdict = scoreSpam({ ...ham, text: `hello ${GTUBE}` });
  t.ok(isSpam(verdict.score, 5));
  t.match(verdict.hits, [{ rule: 'GTUBE' }]);
});

t.test('each rule adds its score', async (t) => {
  t.same(scoreSpam({ ...ham, dmarc: 'fail' }).hits, [{ rule: 'DMARC_FAIL', score: 3 }]);
  t.same(scoreSpam({ ...ham, spf: 'fail' }).hits, [{ rule: 'SPF_FAIL', score: 1.5 }]);
  t.same(scoreSpam({ ...ham, subject: 'URGENT BUSINESS PROPOSAL' }).hits, [
    { rule: 'SUBJ_ALL_CAPS', score: 1.5 },
  ]);
  t.same(scoreSpam({ ...ham, fromName: 'paypal@paypal.test' }).hits, [
    { rule: 'FROM_NAME_OTHER_ADDRESS', score: 1 },
  ]);
  t.same(scoreSpam({ ...ham, text: '', html: '<p>hi</p>' }).hits, [{ rule: 'HTML_ONLY', score: 1 }]);
});

t.test('phrases add up to a cap', async (t) => {
  const verdict = scoreSpam({
    ...ham,
    text: 'You have won the lottery! Click here, act now, 100% free, wire transfer',
  });
  t.same(verdict.hits, [{ rule: 'SPAM_PHRASES', score: 4 }]);
});

t.test('the threshold is inclusive', async (t) => {
  t.ok(isSpam(5, 5));
  t.notOk(isSpam(4.9, 5));
});
