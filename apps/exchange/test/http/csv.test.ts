import t from 'tap';
import { toCsv } from '../../src/http/csv.ts';

t.test('a header line, CRLF line ends, and quoting only where RFC 4180 needs it', async (t) => {
  const rows = [
    { a: 1, b: 'plain' },
    { a: 2, b: 'with, comma' },
    { a: 3, b: 'say "hi"\nthere' },
  ];
  t.equal(toCsv(rows, ['a', 'b']), 'a,b\r\n1,plain\r\n2,"with, comma"\r\n3,"say ""hi""\nthere"\r\n');
  t.equal(toCsv([], ['a']), 'a\r\n');
});
