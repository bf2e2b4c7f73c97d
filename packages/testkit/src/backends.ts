/**
 * The real servers for tests: started through `tools/backends.sh` on loopback, or taken from the
 * environment when one is already running (REDIS_URL, NATS_URL, MINIO_URL, NGINX_URL,
 * CASSANDRA_URL, ELASTICSEARCH_URL, TEST_KUBECONFIG). A server that cannot start is a failure
 * with its log, never a skip.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const BACKENDS = fileURLToPath(new URL('../../../tools/backends.sh', import.meta.url));

export type BackendName = 'redis' | 'nats' | 'minio' | 'nginx' | 'cassandra' | 'elasticsearch' | 'kubernetes';

/**
 * What the script prints for each server (NAME=where), and the variable that points the tests at
 * a server already running. For Kubernetes "where" is a kubeconfig file, and the variable is not
 * KUBECONFIG: a developer's own cluster must never be taken for a throwaway one.
 */
const KEYS: Record<BackendName, { printed: string; given: string }> = {
  redis: { printed: 'REDIS_URL', given: 'REDIS_URL' },
  nats: { printed: 'NATS_URL', given: 'NATS_URL' },
  minio: { printed: 'MINIO_URL', given: 'MINIO_URL' },
  nginx: { printed: 'NGINX_URL', given: 'NGINX_URL' },
  cassandra: { printed: 'CASSANDRA_URL', given: 'CASSANDRA_URL' },
  elasticsearch: { printed: 'ELASTICSEARCH_URL', given: 'ELASTICSEARCH_URL' },
  kubernetes: { printed: 'KUBECONFIG', given: 'TEST_KUBECONFIG' },
};

export interface Backend {
  /** Where it listens: a URL (cassandra://host:port/datacenter), or a kubeconfig file's path. */
  readonly url: string;
  /** Stops the server if this call started it. */
  stop(): Promise<void>;
}

/**
 * Starts (or finds) a server. `settings` are passed to the script, e.g. NGINX_UPSTREAM for the
 * address nginx proxies to.
 */
export async function backend(
  name: BackendName,
  settings: Record<string, string> = {},
  env = process.env,
): Promise<Backend> {
  const { printed, given: variable } = KEYS[name];
  const given = env[variable];
  if (given) return { url: given, stop: () => Promise.resolve() };
  let stdout: string;
  try {
    ({ stdout } = await run('bash', [BACKENDS, 'up', name], {
      timeout: 1_800_000, // a cold machine may first build the server (go install, Maven)
      env: { ...env, ...settings },
    }));
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(`${name} could not start (tools/backends.sh up ${name}):\n${stderr ?? message}`, {
      cause: error,
    });
  }
  const line = stdout.split('\n').find((l) => l.startsWith(`${printed}=`));
  if (line === undefined) throw new Error(`tools/backends.sh up ${name} printed no ${printed}:\n${stdout}`);
  return {
    url: line.slice(printed.length + 1),
    async stop() {
      await run('bash', [BACKENDS, 'down', name]);
    },
  };
}
