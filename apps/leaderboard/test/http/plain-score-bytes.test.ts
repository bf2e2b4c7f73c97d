import t from 'tap';
import { compareReaders, mutatedTexts, seededRandom } from '@tessera/testkit';
import { plainScore } from '../../src/http/plain-score.ts';
import { plainScoreOfBytes } from '../../src/http/plain-score-bytes.ts';
import { MATCH_ID_MAX_LENGTH, USER_ID_MAX_LENGTH } from '../../src/http/id-rules.ts';
import { scoreBodySchema, userIdSchema } from '../../src/http/schemas.ts';

/**
 * The bytes reader takes a body only as plainScore takes JSON.parse's object of it: whatever it
 * reads equals plainScore's answer, and whatever it declines goes to plainScore (which may take
 * it, in another spelling, or decline it too).
 */
const MAX = 100;
const ofBytes = (text: string) => plainScoreOfBytes(Buffer.from(text, 'utf8'), MAX);
const ofParse = (text: string) => {
  try {
    return plainScore(JSON.parse(text), MAX);
  } catch {
    return undefined;
  }
};

t.test('the usual spellings are read from the bytes, as plainScore reads them', async (t) => {
  const taken = [
    '{"user_id":"ada","points":3}',
    '{"points":100,"user_id":"a-b_C9","match_id":"m:1"}',
    '{"match_id":"!~{}[],:","user_id":"Z","points":1}',
    `{"user_id":"${'x'.repeat(64)}","points":1,"match_id":"${'!'.repeat(128)}"}`,
    '{"user_id":"p00000000000000000000abc","points":5}',
  ];
  for (const text of taken) {
    t.not(ofBytes(text), undefined, text);
    t.same(ofBytes(text), ofParse(text), text);
  }
});

t.test('other spellings and invalid bodies are declined: JSON.parse and plainScore decide', async (t) => {
  const declined: Array<[string, 'plain' | 'invalid']> = [
    ['{ "user_id": "ada", "points": 3 }', 'plain'],
    ['{"user_id":"\\u0061da","points":3}', 'plain'],
    ['{"user_id":"ada","points":3.0}', 'plain'],
    ['{"user_id":"ada","points":3e0}', 'plain'],
    ['{"user_id":"ada","points":3,"match_id":"a\\"b"}', 'plain'],
    ['{"user_id":"bob","user_id":"ada","points":3}', 'plain'],
    ['{"user_id":"ada","points":3}\n', 'plain'],
    ['{"user_id":"ada","points":03}', 'invalid'],
    ['{"user_id":"ada","points":-3}', 'invalid'],
    ['{"user_id":"ada","points":0}', 'invalid'],
    ['{"user_id":"ada","points":101}', 'invalid'],
    ['{"user_id":"ada","points":1000000000000000000000}', 'invalid'],
    ['{"user_id":"ada","points":"3"}', 'invalid'],
    ['{"user_id":"","points":3}', 'invalid'],
    [`{"user_id":"${'x'.repeat(65)}","points":3}`, 'invalid'],
    ['{"user_id":"a b","points":3}', 'invalid'],
    ['{"user_id":"adé","points":3}', 'invalid'],
    ['{"user_id":"ada"}', 'invalid'],
    ['{"points":3}', 'invalid'],
    ['{"user_id":"ada","points":3,"extra":1}', 'invalid'],
    ['{"user_id":"ada","points":3,"__proto__":{}}', 'invalid'],
    ['{"user_id":"ada","points":3,"match_id":""}', 'invalid'],
    ['{"user_id":"ada","points":3,"match_id":"a b"}', 'invalid'],
    [`{"user_id":"ada","points":3,"match_id":"${'m'.repeat(129)}"}`, 'invalid'],
    ['{"user_id":"ada","points":3,"match_id":null}', 'invalid'],
    ['{"user_id":"ada","points":3,}', 'invalid'],
    // A key without a value is not JSON, before another key or at the end.
    ['{"user_id":"ada","points":3,"match_id":}', 'invalid'],
    ['{"match_id":,"user_id":"ada","points":3}', 'invalid'],
    ['{"points":,"user_id":"ada","points":3}', 'invalid'],
    ['{"user_id":,"user_id":"ada","points":3}', 'invalid'],
    ['{"user_id":"ada",,"points":3}', 'invalid'],
    ['{"user_id":"ada","points":3}}', 'invalid'],
    ['{"user_id":"ada}', 'invalid'],
    ['{"match_id":"a}', 'invalid'],
    ['{}', 'invalid'],
    ['{', 'invalid'],
    ['', 'invalid'],
    ['[{"user_id":"ada","points":3}]', 'invalid'],
  ];
  for (const [text, kind] of declined) {
    t.equal(ofBytes(text), undefined, text);
    t.equal(ofParse(text) !== undefined, kind === 'plain', `${text}: ${kind} for JSON.parse`);
  }
});

t.test('seeded mutations of plain bodies: the bytes reader never disagrees with plainScore', async (t) => {
  const random = seededRandom(8);
  const alphabet = '{}[]",:\\ 0123456789-+.eE_abcxyzé\u0000';
  const seeds = [
    '{"user_id":"ada","points":3}',
    '{"points":42,"user_id":"bob_1","match_id":"m-7"}',
    '{"user_id":"carol","match_id":"x","points":100}',
  ];
  const { taken, disagreement } = compareReaders(
    mutatedTexts(seeds, alphabet, random, 20_000),
    ofBytes,
    ofParse,
  );
  t.same(disagreement, undefined, 'no body read otherwise');
  t.ok(taken > 100, `${taken} mutated bodies read from the bytes, each as plainScore reads it`);
});

t.test('ids: the bytes reader takes the characters and lengths the schema takes', async (t) => {
  const userId = new RegExp(userIdSchema.pattern);
  const matchId = new RegExp(scoreBodySchema(MAX).properties.match_id.pattern);
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    // A quote or a backslash is escaped in JSON: the bytes reader leaves those to JSON.parse.
    if (ch === '"' || ch === '\\') continue;
    t.equal(
      ofBytes(`{"user_id":"a${ch}","points":1}`) !== undefined,
      userId.test(`a${ch}`),
      `user id a${ch}`,
    );
    t.equal(
      ofBytes(`{"user_id":"a","points":1,"match_id":"m${ch}"}`) !== undefined,
      matchId.test(`m${ch}`),
      `match id m${ch}`,
    );
  }
  for (const [length, taken] of [
    [USER_ID_MAX_LENGTH, true],
    [USER_ID_MAX_LENGTH + 1, false],
  ] as const) {
    t.equal(userId.test('u'.repeat(length)), taken);
    t.equal(ofBytes(`{"user_id":"${'u'.repeat(length)}","points":1}`) !== undefined, taken);
  }
  for (const [length, taken] of [
    [MATCH_ID_MAX_LENGTH, true],
    [MATCH_ID_MAX_LENGTH + 1, false],
  ] as const) {
    t.equal(matchId.test('m'.repeat(length)), taken);
    t.equal(ofBytes(`{"user_id":"a","points":1,"match_id":"${'m'.repeat(length)}"}`) !== undefined, taken);
  }
});
