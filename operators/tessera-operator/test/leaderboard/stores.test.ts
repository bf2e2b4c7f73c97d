/**
 * The operator owns a board's data on its servers: against a real API server and real NATS, Redis
 * and Cassandra, a board naming them gets its win log stream before any pod exists, and deleting
 * it removes the stream and match bucket, the Redis keys under its prefix and its keyspace (and
 * nothing of another board). A NATS that cannot be reached is a condition and an Event, the rest
 * is made anyway; a board annotated to keep its data keeps it.
 */
import { randomBytes } from 'node:crypto';
import { AppsV1Api, CoreV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { parseCassandraUrl } from '@tessera/leaderboard/stores';
import { backend, freePort } from '@tessera/testkit';
import cassandra from 'cassandra-driver';
import { Redis } from 'ioredis';
import t from 'tap';
import { storeNames } from '../../src/leaderboard/store-names.ts';
import { apiServer, until } from '../helpers/api-server.ts';
import { testOperator } from '../helpers/operator.ts';

t.setTimeout(600_000);

const LEADERBOARDS = { group: 'tessera.dev', version: 'v1alpha1', plural: 'leaderboards' };
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

const [nats, redisServer, cassandraServer] = await Promise.all([
  backend('nats'),
  backend('redis'),
  backend('cassandra'),
]);
t.teardown(() => Promise.all([nats.stop(), redisServer.stop(), cassandraServer.stop()]));

const nc = await connect({ servers: nats.url });
t.teardown(() => nc.close());
const jsm = await jetstreamManager(nc);
const redis = new Redis(redisServer.url);
t.teardown(() => redis.quit());
const { contactPoints, dataCenter } = parseCassandraUrl(cassandraServer.url);
const cql = new cassandra.Client({ contactPoints, localDataCenter: dataCenter });
t.teardown(() => cql.shutdown());

const streamExists = (name: string) =>
  jsm.streams.info(name).then(
    () => true,
    () => false,
  );
const keyspaceExists = async (keyspace: string) =>
  (await cql.execute('SELECT keyspace_name FROM system_schema.keyspaces WHERE keyspace_name = ?', [keyspace]))
    .rowLength === 1;

interface Board {
  metadata: { finalizers?: string[] };
  status?: { conditions?: { type: string; status: string; reason: string; message: string }[] };
}

async function setUp(label: string) {
  const server = await apiServer(t, label);
  const { config, namespace, custom } = server;
  const core = config.makeApiClient(CoreV1Api);
  const operator = await testOperator(t, config, namespace);
  await operator.leading;
  const target = { ...LEADERBOARDS, namespace };
  const secret = async (name: string, urls: Record<string, string>) =>
    core.createNamespacedSecret({ namespace, body: { metadata: { name }, stringData: urls } });
  const create = (name: string, connections: Record<string, string>, annotations?: Record<string, string>) =>
    custom.createNamespacedCustomObject({
      ...target,
      body: {
        apiVersion: 'tessera.dev/v1alpha1',
        kind: 'Leaderboard',
        metadata: { name, ...(annotations === undefined ? {} : { annotations }) },
        spec: {
          connections: Object.fromEntries(
            Object.entries(connections).map(([store, secretName]) => [
              store,
              { secretKeyRef: { name: secretName, key: store } },
            ]),
          ),
        },
      },
    });
  const get = async (name: string) => (await custom.getNamespacedCustomObject({ ...target, name })) as Board;
  const gone = async (name: string) =>
    custom.getNamespacedCustomObject({ ...target, name }).then(
      () => false,
      (error: { code?: number }) => error.code === 404,
    );
  const remove = (name: string) => custom.deleteNamespacedCustomObject({ ...target, name });
  const keepData = (name: string) =>
    custom.patchNamespacedCustomObject(
      { ...target, name, body: { metadata: { annotations: { 'tessera.dev/keep-data': 'true' } } } },
      mergePatch,
    );
  return { ...server, core, secret, create, get, gone, remove, keepData };
}

t.test('a board with its servers: the stream before any pod; its data deleted with it', async (t) => {
  const lb = await setUp(`lb-stores-${randomBytes(3).toString('hex')}`);
  const { namespace } = lb;
  await lb.secret('servers', { nats: nats.url, redis: redisServer.url, cassandra: cassandraServer.url });
  await lb.create('scores', { nats: 'servers', redis: 'servers', cassandra: 'servers' });
  await lb.create('other', { nats: 'servers', redis: 'servers', cassandra: 'servers' });
  const mine = storeNames(namespace, 'scores');
  const theirs = storeNames(namespace, 'other');

  await until(
    () => 'the stream and match bucket of both boards',
    async () =>
      (await streamExists(mine.LEADERBOARD_STREAM!)) &&
      (await streamExists(`KV_${mine.LEADERBOARD_MATCH_BUCKET}`)) &&
      (await streamExists(theirs.LEADERBOARD_STREAM!)),
  );
  const info = await jsm.streams.info(mine.LEADERBOARD_STREAM!);
  t.same(info.config.subjects, [`${mine.LEADERBOARD_STREAM_SUBJECT}.*`], "the api's own subjects");
  await until(
    () => 'StoresReady=True',
    async () =>
      (await lb.get('scores')).status?.conditions?.some(
        (c) => c.type === 'StoresReady' && c.status === 'True',
      ) ?? false,
  );

  // What the api pods would have written: keys under each prefix, each board's keyspace.
  await redis.set(`${mine.LEADERBOARD_REDIS_PREFIX}2026-11:ranking`, '1');
  await redis.set(`${mine.LEADERBOARD_REDIS_PREFIX}profile:alice`, '1');
  await redis.set(`${theirs.LEADERBOARD_REDIS_PREFIX}2026-11:ranking`, '1');
  for (const keyspace of [mine.LEADERBOARD_KEYSPACE!, theirs.LEADERBOARD_KEYSPACE!]) {
    await cql.execute(
      `CREATE KEYSPACE IF NOT EXISTS ${keyspace} WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}`,
    );
  }

  await lb.remove('scores');
  await until(
    () => 'the board to go',
    () => lb.gone('scores'),
    60_000,
  );
  t.notOk(await streamExists(mine.LEADERBOARD_STREAM!), 'its stream is gone');
  t.notOk(await streamExists(`KV_${mine.LEADERBOARD_MATCH_BUCKET}`), 'its match bucket is gone');
  t.same(await redis.keys(`${mine.LEADERBOARD_REDIS_PREFIX}*`), [], 'its Redis keys are gone');
  t.notOk(await keyspaceExists(mine.LEADERBOARD_KEYSPACE!), 'its keyspace is gone');

  t.ok(await streamExists(theirs.LEADERBOARD_STREAM!), "the other board's stream stays");
  t.equal(await redis.exists(`${theirs.LEADERBOARD_REDIS_PREFIX}2026-11:ranking`), 1, 'its keys stay');
  t.ok(await keyspaceExists(theirs.LEADERBOARD_KEYSPACE!), 'its keyspace stays');

  // The other one, annotated to keep its data: the board goes, the data stays.
  await lb.keepData('other');
  await lb.remove('other');
  await until(
    () => 'the annotated board to go',
    () => lb.gone('other'),
    60_000,
  );
  t.ok(await streamExists(theirs.LEADERBOARD_STREAM!), 'kept: the stream');
  t.equal(await redis.exists(`${theirs.LEADERBOARD_REDIS_PREFIX}2026-11:ranking`), 1, 'kept: the keys');
  t.ok(await keyspaceExists(theirs.LEADERBOARD_KEYSPACE!), 'kept: the keyspace');

  await jsm.streams.delete(theirs.LEADERBOARD_STREAM!).catch(() => false);
  await jsm.streams.delete(`KV_${theirs.LEADERBOARD_MATCH_BUCKET}`).catch(() => false);
  await redis.del(`${theirs.LEADERBOARD_REDIS_PREFIX}2026-11:ranking`);
  await cql.execute(`DROP KEYSPACE IF EXISTS ${theirs.LEADERBOARD_KEYSPACE}`);
});

t.test('a NATS that cannot be reached: a condition and an Event, the rest made anyway', async (t) => {
  const lb = await setUp(`lb-nonats-${randomBytes(3).toString('hex')}`);
  const { namespace, config } = lb;
  const nowhere = `nats://127.0.0.1:${await freePort()}`;
  await lb.secret('servers', { nats: nowhere });
  await lb.create('lonely', { nats: 'servers' });
  let last: Board | undefined;
  await until(
    () => `StoresReady=False (status: ${JSON.stringify(last?.status)})`,
    async () =>
      (last = await lb.get('lonely')).status?.conditions?.some(
        (c) => c.type === 'StoresReady' && c.status === 'False' && c.reason === 'StoreUnavailable',
      ) ?? false,
    60_000,
  );
  t.match(
    last?.status?.conditions?.find((c) => c.type === 'StoresReady')?.message,
    /NATS at nats:\/\/127\.0\.0\.1/,
    'the condition says which server',
  );
  const apps = config.makeApiClient(AppsV1Api);
  t.ok(
    await apps.readNamespacedDeployment({ namespace, name: 'lonely-api' }),
    'the Deployment is made anyway',
  );
  const warnings = (await lb.core.listNamespacedEvent({ namespace })).items.filter(
    (e) => e.involvedObject.name === 'lonely' && e.type === 'Warning' && e.reason === 'StoreUnavailable',
  );
  t.equal(warnings.length, 1, 'one Warning Event, not one per pass');

  // Deleting it cannot delete its data: the finalizer stays (and says why) until the annotation.
  await lb.remove('lonely');
  await until(
    () => `DataDeleted=False (status: ${JSON.stringify(last?.status)})`,
    async () =>
      (last = await lb.get('lonely')).status?.conditions?.some(
        (c) => c.type === 'DataDeleted' && c.status === 'False',
      ) ?? false,
    60_000,
  );
  t.ok(last?.metadata.finalizers?.includes('tessera.dev/leaderboard-cleanup'), 'the finalizer stays');
  await lb.keepData('lonely');
  await until(
    () => 'the board to go once its data may stay',
    () => lb.gone('lonely'),
    60_000,
  );
});
