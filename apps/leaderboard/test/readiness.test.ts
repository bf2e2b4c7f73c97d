import t from 'tap';
import { leaderboardDescriptor } from '../src/descriptor.ts';
import type { LeaderboardInstance } from '../src/instance.ts';

/** An instance with only what the readiness checks read. */
function instance(refusing: string | undefined): LeaderboardInstance {
  return {
    isOpen: () => true,
    ports: { winLog: { refusing: () => refusing } },
  } as unknown as LeaderboardInstance;
}

t.test('not ready once the win log refuses every append (a failed sync)', async (t) => {
  const checks = leaderboardDescriptor.readiness!(instance(undefined));
  t.equal(await checks.winLog!(), true, 'ready while the log takes appends');
  const broken = leaderboardDescriptor.readiness!(
    instance('fdatasync of the WAL failed; no more commits: EIO'),
  );
  t.equal(await broken.winLog!(), false, 'not ready after a failed sync');
});
