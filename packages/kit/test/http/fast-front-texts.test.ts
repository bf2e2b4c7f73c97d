import t from 'tap';
import { RememberedText } from '../../src/http/fast-front-texts.ts';
import { MAX_REMEMBERED_LENGTH } from '../../src/http/fast-route-table.ts';

/** `value` at `at` in a buffer of other bytes around it, as a head holds it. */
function inHead(value: string, at = 7): [Buffer, number, number] {
  const bytes = Buffer.concat([Buffer.alloc(at, 'x'), Buffer.from(value, 'latin1'), Buffer.from('\r\n')]);
  return [bytes, at, at + value.length];
}

t.test('the same bytes give the same string; other bytes their own text', (t) => {
  const { read } = new RememberedText();
  const first = read(...inHead('Bearer abc.def'));
  t.equal(first, 'Bearer abc.def');
  const again = read(...inHead('Bearer abc.def', 3));
  t.equal(again, first);
  // The same length, the last byte other: a new text, remembered in turn.
  t.equal(read(...inHead('Bearer abc.deg')), 'Bearer abc.deg');
  t.equal(read(...inHead('Bearer abc.deg', 11)), 'Bearer abc.deg');
  // Shorter, then longer than the bytes kept so far: both read right.
  t.equal(read(...inHead('/v1')), '/v1');
  const long = `Bearer ${'z'.repeat(200)}`;
  t.equal(read(...inHead(long)), long);
  t.equal(read(...inHead(long, 1)), long);
  t.equal(read(...inHead('')), '', 'an empty value');
  t.end();
});

t.test('a value longer than the limit is read each time and not kept', (t) => {
  const { read } = new RememberedText();
  t.equal(read(...inHead('short')), 'short');
  const huge = 'h'.repeat(MAX_REMEMBERED_LENGTH + 1);
  t.equal(read(...inHead(huge)), huge);
  t.equal(read(...inHead('short', 2)), 'short', 'the value kept before is still the one compared');
  t.end();
});

t.test('bytes the same as the last value make no new string: they are not read at all', (t) => {
  const { read } = new RememberedText();
  let reads = 0;
  const counted = (value: string, at?: number): [Buffer, number, number] => {
    const [bytes, start, end] = inHead(value, at);
    const toString = bytes.toString.bind(bytes);
    bytes.toString = (...args: Parameters<Buffer['toString']>) => {
      reads++;
      return toString(...args);
    };
    return [bytes, start, end];
  };
  read(...counted('Bearer abc.def'));
  t.equal(reads, 1, 'the first value is read');
  read(...counted('Bearer abc.def', 5));
  t.equal(reads, 1, 'the same bytes again: the remembered string, nothing read');
  read(...counted('Bearer abc.deg'));
  t.equal(reads, 2, 'other bytes are read');
  t.end();
});
