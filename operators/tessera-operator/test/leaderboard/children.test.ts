import t from 'tap';
import { apiDeployment, archiveJob, environment, names } from '../../src/leaderboard/children.ts';
import { withDefaults } from '../../src/leaderboard/defaults.ts';
import type { Leaderboard } from '../../src/leaderboard/types.ts';

const board = (spec: Leaderboard['spec']): Leaderboard => ({
  apiVersion: 'tessera.dev/v1alpha1',
  kind: 'Leaderboard',
  metadata: { name: 'scores', namespace: 'games', uid: 'u-1' },
  spec,
});
const ref = (name: string) => ({ secretKeyRef: { name, key: 'url' } });

t.test('every connection Secret becomes its variable; none means embedded stores', async (t) => {
  const shared = withDefaults(
    { connections: { nats: ref('nats'), redis: ref('redis'), cassandra: ref('cassandra') } },
    'img',
  );
  t.same(
    environment(shared)
      .filter((e) => e.valueFrom !== undefined)
      .map((e) => `${e.name}<-${e.valueFrom?.secretKeyRef?.name}`),
    ['NATS_URL<-nats', 'REDIS_URL<-redis', 'CASSANDRA_URL<-cassandra'],
  );
  t.same(
    environment(withDefaults({}, 'img')).filter((e) => e.valueFrom !== undefined),
    [],
  );
});

t.test('the development sign-in only when the spec asks for it', async (t) => {
  const signIn = (spec: Leaderboard['spec']) =>
    environment(withDefaults(spec, 'img')).find((e) => e.name === 'DEV_SIGNIN')?.value;
  t.equal(signIn({}), undefined, 'off by default');
  t.equal(signIn({ api: { devSignIn: false } }), undefined);
  t.equal(signIn({ api: { devSignIn: true } }), 'true');
});

t.test('one replica is replaced (never two processes on embedded stores); more roll', async (t) => {
  t.equal(apiDeployment(board({}), withDefaults({}, 'img')).spec?.strategy?.type, 'Recreate');
  const many = board({ api: { replicas: 3 }, connections: { nats: ref('n'), redis: ref('r') } });
  t.match(apiDeployment(many, withDefaults(many.spec, 'img')).spec?.strategy, {
    type: 'RollingUpdate',
    rollingUpdate: { maxUnavailable: 0 },
  });
});

t.test('quantities reach the pod as strings; the spec image wins over the default', async (t) => {
  const spec = withDefaults({ image: 'mine:1', api: { resources: { requests: { cpu: 1 } } } }, 'img');
  const container = apiDeployment(board({}), spec).spec?.template.spec?.containers[0];
  t.same(container?.resources, { requests: { cpu: '1' } });
  t.equal(container?.image, 'mine:1');
});

t.test('a deleted api pod serves on until the endpoints have let it go', async (t) => {
  const container = apiDeployment(board({}), withDefaults({}, 'img')).spec?.template.spec?.containers[0];
  t.same(container?.lifecycle?.preStop, { sleep: { seconds: 5 } });
});

t.test('archive Jobs are named by their period in lower case', async (t) => {
  t.equal(names.archive('scores', '2026-W05'), 'scores-archive-2026-w05');
  const job = archiveJob(board({}), withDefaults({ retention: 3 }, 'img'), '2026-W05');
  t.equal(job.metadata?.labels?.['tessera.dev/period'], '2026-W05');
  t.same(job.spec?.template.spec?.containers[0]?.args, [
    'archive',
    'leaderboard',
    '--period',
    '2026-W05',
    '--keep',
    '3',
  ]);
  t.equal(job.spec?.template.spec?.restartPolicy, 'Never');
});
