/**
 * Where one board keeps its data on shared servers: its own Cassandra keyspace, Redis key prefix,
 * JetStream stream, subject and match bucket, named after the board's namespace and name. Two
 * boards on the same NATS, Redis and Cassandra (two namespaces, two releases, a test beside a
 * deployment) then never mix their wins, rankings or archives. Pure and stable: the same board
 * always gets the same names (renaming them would orphan the data). Names too long for a keyspace
 * (48 characters) keep a readable head and end with a hash of the whole.
 */
import { createHash } from 'node:crypto';
import type { V1EnvVar } from '@kubernetes/client-node';

const KEYSPACE_MAX = 48;
const STREAM_MAX = 64;

function fit(name: string, max: number, id: string): string {
  if (name.length <= max) return name;
  const hash = createHash('sha256').update(id).digest('hex').slice(0, 10);
  return `${name.slice(0, max - hash.length - 1)}_${hash}`;
}

/** Lower case letters, digits and `_` (what a keyspace allows; stream names allow it too). */
const word = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '_');

export function storeNames(namespace: string, name: string): Record<string, string> {
  const id = `${namespace}/${name}`;
  const base = `${word(namespace)}_${word(name)}`;
  return {
    LEADERBOARD_KEYSPACE: fit(`lb_${base}`, KEYSPACE_MAX, id),
    LEADERBOARD_REDIS_PREFIX: `lb:${namespace}/${name}:`,
    LEADERBOARD_STREAM: fit(`LB_WINS_${base}`, STREAM_MAX, id),
    LEADERBOARD_STREAM_SUBJECT: `lb.${fit(base, STREAM_MAX, id).replace(/_/g, '-')}.wins`,
    LEADERBOARD_MATCH_BUCKET: fit(`LB_MATCHES_${base}`, STREAM_MAX, id),
  };
}

/**
 * The names as variables, and LEADERBOARD_MIGRATE: a keyspace the operator names is one nobody
 * made, so every process of the board (api pods, archive Jobs) applies the schema at start
 * (idempotent, `CREATE … IF NOT EXISTS`).
 */
export function storeEnvironment(namespace: string, name: string): V1EnvVar[] {
  return [
    ...Object.entries(storeNames(namespace, name)).map(([key, value]) => ({ name: key, value })),
    { name: 'LEADERBOARD_MIGRATE', value: 'true' },
  ];
}
