/**
 * The end-to-end test's release: `tools/deploy.sh up` (what `make deploy` runs) as a release and
 * namespace of the test's own, the teardowns that remove it whatever happens, and what the test
 * reads back (the board's status, the board's keyspace on Cassandra).
 */
import { fileURLToPath } from 'node:url';
import { kubectl, parseAssignments, type Cluster } from '@tessera/testkit';
import cassandra from 'cassandra-driver';
import type { Test } from 'tap';
import { helmFor, run } from './helm.ts';
import type { NamespacedKubectl } from './namespace-wait.ts';

const DEPLOY = fileURLToPath(new URL('../../../tools/deploy.sh', import.meta.url));

export interface Board {
  status?: {
    currentPeriod?: string;
    lastArchivedPeriod?: string;
    archivedPeriods?: string[];
    readyReplicas?: number;
    conditions?: { type: string; status: string; reason?: string }[];
  };
}

/** The Leaderboard the chart made, as kubectl reads it. */
export const readBoard = async (k: NamespacedKubectl): Promise<Board> =>
  JSON.parse(await k('get', 'leaderboard', 'leaderboard', '-o', 'json')) as Board;

export interface ReleaseNames {
  readonly namespace: string;
  readonly release: string;
  readonly host: string;
  readonly secret: string;
}

export interface Deployed {
  /** The board's keyspace (the operator names it after the namespace). */
  readonly keyspace: string;
  readonly withCassandra: <T>(use: (client: cassandra.Client) => Promise<T>) => Promise<T>;
}

/** Deploys the release (images, chart, every pod ready) and registers its removal on `t`. */
export async function deployRelease(t: Test, target: Cluster, names: ReleaseNames): Promise<Deployed> {
  const { namespace, release, host, secret } = names;
  const deployEnv = {
    ...process.env,
    RELEASE: release,
    NAMESPACE: namespace,
    AUTH_JWT_SECRET: secret,
    DEPLOY_SET: `ingress.host=${host}`,
    ...(process.env.TEST_E2E_SKIP_IMAGES === '1' ? { DEPLOY_SKIP_IMAGES: '1' } : {}),
  };
  let deployed: Map<string, string>;
  try {
    const { stdout } = await run('bash', [DEPLOY, 'up'], {
      env: deployEnv,
      timeout: 1_800_000,
      maxBuffer: 64 << 20,
    });
    deployed = parseAssignments(stdout);
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(`tools/deploy.sh up failed:\n${stderr ?? message}`, { cause: error });
  }
  if (deployed.get('BACKING_STARTED') === '1') {
    t.teardown(() => run('bash', [DEPLOY, 'backing-down'], { env: deployEnv, timeout: 120_000 }));
  }
  // The board's keyspace (the operator names it after the namespace): the operator drops it when the
  // board is deleted (checked after `helm uninstall` in the test); dropped here too if a test failed
  // first, since Cassandra may be a shared one. From here: CASSANDRA_URL itself.
  const cassandraUrl = process.env.CASSANDRA_URL || 'cassandra://127.0.0.1:19042/datacenter1';
  const keyspace = `lb_${namespace.replace(/-/g, '_')}_leaderboard`;
  async function withCassandra<T>(use: (client: cassandra.Client) => Promise<T>): Promise<T> {
    const [, points = '', dataCenter = ''] = /^cassandra:\/\/([^/]+)\/(.+)$/.exec(cassandraUrl) ?? [];
    const client = new cassandra.Client({ contactPoints: points.split(','), localDataCenter: dataCenter });
    try {
      return await use(client);
    } finally {
      await client.shutdown();
    }
  }
  t.teardown(() => withCassandra((client) => client.execute(`DROP KEYSPACE IF EXISTS ${keyspace}`)));
  // Whatever happens in the test, the release and the namespace go.
  t.teardown(async () => {
    const { helm, env } = await helmFor(t);
    await run(helm, ['uninstall', release, '--namespace', namespace, '--kubeconfig', target.kubeconfig], {
      env,
    }).catch(() => undefined);
    await kubectl(target, ['delete', 'namespace', namespace, '--ignore-not-found', '--wait=false']);
  });
  return { keyspace, withCassandra };
}
