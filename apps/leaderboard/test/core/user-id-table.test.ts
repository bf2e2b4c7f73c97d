import t from 'tap';
import { UserIdTable } from '../../src/core/user-id-table.ts';

t.test('interns ids as dense handles and gives them back', async (t) => {
  const table = new UserIdTable();
  t.equal(table.intern('alice'), 0);
  t.equal(table.intern('bob'), 1);
  t.equal(table.intern('alice'), 0);
  t.equal(table.handleOf('bob'), 1);
  t.equal(table.handleOf('carol'), -1);
  t.equal(table.idOf(1), 'bob');
  t.equal(table.size, 2);
});

t.test('keeps every id through many growths and rehashes', async (t) => {
  const table = new UserIdTable();
  const n = 100_000;
  for (let i = 0; i < n; i++) table.intern(`user_${i.toString(36)}-x`);
  t.equal(table.size, n);
  let wrong = 0;
  for (let i = 0; i < n; i++) {
    const id = `user_${i.toString(36)}-x`;
    if (table.handleOf(id) !== i || table.idOf(i) !== id) wrong++;
  }
  t.equal(wrong, 0);
  t.equal(table.handleOf('user_'), -1);
});

t.test('ids of the same length and hash bucket are told apart by their bytes', async (t) => {
  const table = new UserIdTable();
  const ids = ['ab', 'ba', 'aa', 'bb', 'a-', '-a', 'A_', '_A'];
  ids.forEach((id) => table.intern(id));
  t.same(
    ids.map((id) => table.idOf(table.handleOf(id))),
    ids,
  );
});
