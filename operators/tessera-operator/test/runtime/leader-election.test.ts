/**
 * Two operator instances on one Lease: one leads, the other stays idle (it reconciles nothing)
 * until the Lease is free — given up on shutdown, or expired when its holder stopped renewing.
 */
import { AppsV1Api, CoordinationV1Api, V1MicroTime } from '@kubernetes/client-node';
import t from 'tap';
import { apiServer, until } from '../helpers/api-server.ts';
import { testOperator } from '../helpers/operator.ts';
import { startLeaderElection } from '../../src/runtime/leader-election.ts';
import { createLogger } from '../../src/runtime/logger.ts';

t.setTimeout(600_000);

const LEADERBOARDS = { group: 'tessera.dev', version: 'v1alpha1', plural: 'leaderboards' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test('a second instance stays idle until the Lease is given up', async (t) => {
  const { config, namespace, custom } = await apiServer(t, 'lease');
  const apps = config.makeApiClient(AppsV1Api);
  const a = await testOperator(t, config, namespace, { identity: 'operator-a' });
  await a.leading;
  const b = await testOperator(t, config, namespace, { identity: 'operator-b' });
  await sleep(3_000); // longer than the Lease's duration (2 s): a renews, so b must not take it
  t.ok(a.isLeader(), 'a leads');
  t.notOk(b.isLeader(), 'b waits');
  const ready = await fetch(`${b.health.url}/readyz`);
  t.equal(ready.status, 200, 'a standby is ready (healthy, waiting for the Lease)');
  t.match(await (await fetch(`${b.health.url}/metrics`)).text(), /tessera_operator_leader 0/);

  const create = (name: string) =>
    custom.createNamespacedCustomObject({
      ...LEADERBOARDS,
      namespace,
      body: { apiVersion: 'tessera.dev/v1alpha1', kind: 'Leaderboard', metadata: { name }, spec: {} },
    });
  const reconciled = (name: string) => async () => {
    try {
      await apps.readNamespacedDeployment({ namespace, name: `${name}-api` });
      return true;
    } catch {
      return false;
    }
  };
  await create('first');
  await until(() => 'the leader to reconcile "first"', reconciled('first'));
  t.equal(
    (await b.metrics.reconciles.get()).values.reduce((sum, v) => sum + v.value, 0),
    0,
    'the standby reconciled nothing',
  );

  await a.stop(); // gives the Lease up
  // Read, not timed: the Lease says a gave it up (its holder is empty, or already b), so b need
  // not wait for it to expire (a timed bound failed on a loaded machine).
  const given = await config
    .makeApiClient(CoordinationV1Api)
    .readNamespacedLease({ namespace, name: 'tessera-operator' });
  t.not(given.spec?.holderIdentity, 'operator-a', 'a gave the Lease up when it stopped');
  await until(
    () => 'b to take the given-up Lease',
    () => b.isLeader(),
    10_000,
  );
  await create('second');
  await until(() => 'the new leader to reconcile "second"', reconciled('second'));
});

t.test('a Lease whose holder stopped renewing is taken once it expires', async (t) => {
  const { config, namespace } = await apiServer(t, 'lease');
  const leases = config.makeApiClient(CoordinationV1Api);
  await leases.createNamespacedLease({
    namespace,
    body: {
      metadata: { name: 'tessera-operator', namespace },
      spec: {
        holderIdentity: 'crashed-replica',
        leaseDurationSeconds: 2,
        acquireTime: new V1MicroTime(),
        renewTime: new V1MicroTime(),
      },
    },
  });
  const started = Date.now();
  const b = await testOperator(t, config, namespace, { identity: 'operator-b' });
  await sleep(1_000);
  t.notOk(b.isLeader(), 'not while the Lease may still be held');
  await until(
    () => 'b to take the expired Lease',
    () => b.isLeader(),
    10_000,
  );
  const waited = Date.now() - started;
  t.ok(waited >= 2_000, `waited ${waited} ms: at least the Lease's duration`);
  const lease = await leases.readNamespacedLease({ namespace, name: 'tessera-operator' });
  t.equal(lease.spec?.holderIdentity, 'operator-b');
  t.equal(lease.spec?.leaseTransitions, 1);
});

t.test('a leader stopped while a renewal is in flight still gives the Lease up', async (t) => {
  const { config, namespace } = await apiServer(t, 'lease');
  const leases = config.makeApiClient(CoordinationV1Api);
  // Renewing every 2 ms keeps a renewal in flight nearly all the time, so most stops land on
  // one: before the fix its write came after the release and held the Lease again.
  for (let round = 1; round <= 10; round++) {
    const election = startLeaderElection(config, {
      name: 'tessera-operator',
      namespace,
      identity: 'operator-a',
      leaseDurationSeconds: 2,
      renewMs: 2,
      retryMs: 2,
      onStartedLeading: () => {},
      onStoppedLeading: () => {},
      logger: createLogger('silent'),
    });
    await until(
      () => `round ${round}: to lead`,
      () => election.isLeader(),
      10_000,
    );
    await sleep(round * 3); // stop at a different point of the renewal cycle each round
    await election.stop();
    const lease = await leases.readNamespacedLease({ namespace, name: 'tessera-operator' });
    t.equal(lease.spec?.holderIdentity, '', `round ${round}: the Lease is free after stop()`);
  }
});
