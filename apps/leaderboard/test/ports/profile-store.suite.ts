/**
 * The ProfileStore port's contract, as one suite that every adapter (and cache) runs:
 * `profileStoreSuite(t, open)` with a factory that opens a store in a namespace of its own
 * (cleaning it up through `t.teardown`). Each test uses user ids no other test uses, so the
 * factory may hand every test the same store.
 */
import type { Test } from 'tap';
import type { ProfileStore } from '../../src/ports.ts';

export type OpenProfileStore = (t: Test) => Promise<ProfileStore>;

export function profileStoreSuite(t: Test, open: OpenProfileStore): void {
  t.test('a profile put is read back; a user without one is absent', async (t) => {
    const profiles = await open(t);
    t.same([...(await profiles.get(['alice']))], [], 'nothing yet');
    await profiles.put('alice', { userName: 'alice_w', displayName: 'Alice W.' });
    const found = await profiles.get(['alice', 'bob']);
    t.same(found.get('alice'), { userName: 'alice_w', displayName: 'Alice W.' });
    t.equal(found.has('bob'), false);
    t.equal(found.size, 1);
  });

  t.test('a put replaces the profile, also once it was read', async (t) => {
    const profiles = await open(t);
    await profiles.put('carol', { userName: 'carol', displayName: 'Carol' });
    t.same((await profiles.get(['carol'])).get('carol'), { userName: 'carol', displayName: 'Carol' });
    await profiles.put('carol', { userName: 'carol2', displayName: 'Carol Two' });
    t.same((await profiles.get(['carol'])).get('carol'), { userName: 'carol2', displayName: 'Carol Two' });
  });

  t.test('many ids at once, repeated ids, no ids', async (t) => {
    const profiles = await open(t);
    for (let i = 0; i < 10; i++)
      await profiles.put(`u${i}`, { userName: `user${i}`, displayName: `User ${i}` });
    const ids = ['u3', 'nobody', 'u0', 'u3', 'u9'];
    const found = await profiles.get(ids);
    t.same([...found.keys()].sort(), ['u0', 'u3', 'u9']);
    t.equal(found.get('u9')?.userName, 'user9');
    t.same((await profiles.get(ids)).get('u0'), found.get('u0'), 'the same answer again');
    t.equal((await profiles.get([])).size, 0);
  });

  t.test('names with any characters round-trip', async (t) => {
    const profiles = await open(t);
    const profile = { userName: 'zoë_“q”', displayName: 'Zoë 🎮 {x} "quoted" \\ back' };
    await profiles.put('zoe', profile);
    t.same((await profiles.get(['zoe'])).get('zoe'), profile);
  });
}
