import t from 'tap';
import { emailIdTime, isEmailId, newEmailId } from '../../src/core/email-id.ts';

t.test('email ids are UUIDv7 carrying their creation time', async (t) => {
  const id = newEmailId(Date.UTC(2026, 0, 15));
  t.ok(isEmailId(id), id);
  t.equal(emailIdTime(id), Date.UTC(2026, 0, 15));
  t.notOk(isEmailId('not-a-uuid'));
  t.notOk(isEmailId('6ba7b810-9dad-11d1-80b4-00c04fd430c8'), 'a v1 UUID is not an email id');
});

t.test('ids sort in creation order, also within one millisecond', async (t) => {
  const ids = Array.from({ length: 1000 }, () => newEmailId());
  t.same([...ids].sort(), ids);
  t.equal(new Set(ids).size, ids.length);
  t.ok(newEmailId(1000) < newEmailId(2000));
});
