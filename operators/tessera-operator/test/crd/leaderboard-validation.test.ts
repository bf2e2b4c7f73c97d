/** The Leaderboard CRD on a real API server: defaults filled in, bad objects refused with a 422 naming the field. */
import { ApiException } from '@kubernetes/client-node';
import t from 'tap';
import { apiServer } from '../helpers/api-server.ts';

t.setTimeout(600_000);

const LEADERBOARDS = { group: 'tessera.dev', version: 'v1alpha1', plural: 'leaderboards' };

/** The 422's message (the API server names each invalid field in it). */
async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiException && error.code === 422) {
      const status = (typeof error.body === 'string' ? JSON.parse(error.body) : error.body) as {
        message: string;
      };
      return status.message;
    }
    throw error;
  }
  throw new Error('the API server accepted an object it should have refused');
}

t.test('the Leaderboard CRD validates and defaults', async (t) => {
  const { custom, namespace } = await apiServer(t, 'crd');
  const target = { ...LEADERBOARDS, namespace };
  const board = (name: string, spec: Record<string, unknown>) => ({
    apiVersion: 'tessera.dev/v1alpha1',
    kind: 'Leaderboard',
    metadata: { name },
    spec,
  });

  const created = (await custom.createNamespacedCustomObject({ ...target, body: board('plain', {}) })) as {
    spec: Record<string, unknown>;
  };
  t.same(
    created.spec,
    {
      period: 'monthly',
      timezone: 'UTC',
      tieBreak: 'shared',
      retention: 12,
      api: { replicas: 1, devSignIn: false },
      connections: {},
    },
    'an empty spec is a whole board once the defaults are in',
  );

  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['period', { period: 'yearly' }, /spec\.period: Unsupported value: "yearly"/],
    ['tie-break', { tieBreak: 'random' }, /spec\.tieBreak: Unsupported value/],
    ['zone', { timezone: 'not a zone' }, /spec\.timezone in body should match/],
    ['retention', { retention: 0 }, /spec\.retention in body should be greater than or equal to 1/],
    [
      'replicas',
      { api: { replicas: -1 } },
      /spec\.api\.replicas in body should be greater than or equal to 0/,
    ],
    [
      'secret',
      { connections: { redis: { secretKeyRef: { name: 'Bad_Name', key: 'url' } } } },
      /spec\.connections\.redis\.secretKeyRef\.name in body should match/,
    ],
    [
      'shared',
      { api: { replicas: 3 } },
      /spec\.api\.replicas: Invalid value: .*more than one api replica needs shared stores/,
    ],
  ];
  for (const [name, spec, expected] of cases) {
    t.match(
      await refusal(custom.createNamespacedCustomObject({ ...target, body: board(`bad-${name}`, spec) })),
      expected,
      name,
    );
  }
  await custom.createNamespacedCustomObject({
    ...target,
    body: board('shared', {
      api: { replicas: 3 },
      connections: {
        nats: { secretKeyRef: { name: 'nats', key: 'url' } },
        redis: { secretKeyRef: { name: 'redis', key: 'url' } },
      },
    }),
  });
  t.pass('three replicas on shared stores are accepted');

  // The transition rule (self == oldSelf): a board's zone and period are fixed once set.
  const patch = (spec: Record<string, unknown>) =>
    custom.patchNamespacedCustomObject({
      ...target,
      name: 'plain',
      body: [{ op: 'replace', path: `/spec/${Object.keys(spec)[0]}`, value: Object.values(spec)[0] }],
    });
  t.match(
    await refusal(patch({ timezone: 'Europe/Paris' })),
    /spec\.timezone: Invalid value: .*timezone cannot change once set/,
  );
  t.match(
    await refusal(patch({ period: 'weekly' })),
    /spec\.period: Invalid value: .*period cannot change once set/,
  );
  await patch({ retention: 24 });
  t.pass('other fields change freely');
});
