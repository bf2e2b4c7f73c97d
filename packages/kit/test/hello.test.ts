import t from 'tap';
import { hello } from '@tessera/kit';

t.test('hello', async (t) => {
  t.equal(hello('x'), 'hello x');
});
