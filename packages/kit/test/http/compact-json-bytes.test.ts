import t from 'tap';
import {
  afterValue,
  asciiTable,
  objectCursor,
  readCount,
  readPlainString,
  skipText,
} from '../../src/http/compact-json-bytes.ts';

const bytes = (text: string): Buffer => Buffer.from(text, 'latin1');
/** A cursor on `text` inside braces, at its first byte. */
const on = (text: string) => ({ body: bytes(`{${text}}`), cursor: { at: 1, end: text.length + 2 } });

t.test('an object cursor only on a braced body', (t) => {
  t.same(objectCursor(bytes('{}')), { at: 1, end: 2 });
  t.equal(objectCursor(bytes('{')), undefined);
  t.equal(objectCursor(bytes('[1]')), undefined);
  t.equal(objectCursor(bytes(' {}')), undefined);
  t.end();
});

t.test('after a value: the end, the next key past a comma, or anything else refused', (t) => {
  const end = on('1');
  end.cursor.at = 2;
  t.equal(afterValue(end.body, end.cursor), 'end');
  const next = on('1,"a":2');
  next.cursor.at = 2;
  t.equal(afterValue(next.body, next.cursor), 'next');
  t.equal(next.cursor.at, 3, 'on the next key');
  const bad = on('1 ,"a":2');
  bad.cursor.at = 2;
  t.equal(afterValue(bad.body, bad.cursor), 'bad');
  t.end();
});

t.test('a text is skipped only when it is all there', (t) => {
  const { body, cursor } = on('"side":"buy"');
  t.notOk(skipText(body, cursor, bytes('"size":')));
  t.equal(cursor.at, 1, 'not moved');
  t.notOk(skipText(body, cursor, bytes('"side":"buy"}x')), 'past the end');
  t.ok(skipText(body, cursor, bytes('"side":')));
  t.equal(cursor.at, 8);
  t.end();
});

t.test('a count: JSON spelling only, bounded digits, then a comma or the brace', (t) => {
  const count = (text: string, maxDigits = 5): number => {
    const { body, cursor } = on(text);
    return readCount(body, cursor, maxDigits);
  };
  t.equal(count('42'), 42);
  t.equal(count('42,"a":1'), 42);
  t.equal(count('99999'), 99_999, 'the most digits');
  t.equal(count('100000'), 0, 'one digit too many');
  for (const refused of ['0', '01', '-1', '+1', '1.0', '1e3', '"1"', '', '1 ', 'x']) {
    t.equal(count(refused), 0, refused);
  }
  const { body, cursor } = on('7,');
  readCount(body, cursor, 5);
  t.equal(cursor.at, 2, 'on the comma');
  t.end();
});

t.test('a plain string: unescaped, 1..max bytes of the table', (t) => {
  const letters = asciiTable('a-z');
  const read = (text: string, max = 4): string | undefined => {
    const { body, cursor } = on(text);
    return readPlainString(body, cursor, max, letters);
  };
  t.equal(read('"abcd"'), 'abcd');
  for (const refused of ['""', '"abcde"', '"ab\\"c"', '"aB"', '"a', 'abc', '"é"']) {
    t.equal(read(refused), undefined, refused);
  }
  t.end();
});

t.test('an ASCII table from a character class, less the exceptions', (t) => {
  const table = asciiTable('\\x21-\\x7e', '"\\');
  t.equal(table.length, 128);
  t.equal(table[0x21], 1);
  t.equal(table[0x22], 0, 'the quote left out');
  t.equal(table[0x5c], 0, 'the backslash left out');
  t.equal(table[0x20], 0, 'the space not in the class');
  t.end();
});
