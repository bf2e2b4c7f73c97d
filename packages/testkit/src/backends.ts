/**
 * The real servers for tests: started through `tools/backends.sh` on loopback, or taken from the
 * environment when one is already running (REDIS_URL, NATS_URL, MINIO_URL, NGINX_URL,
 * CASSANDRA_URL, ELASTICSEARCH_URL, TEST_KUBECONFIG); one that an earlier `up` left running with
 * the same settings is used too, and left running. A server that cannot start is a failure with
 * its log, never a skip.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const BACKENDS = fileURLToPath(new URL('../../../tools/backends.sh', import.meta.url));

export type BackendName = 'redis' | 'nats' | 'minio' | 'nginx' | 'cassandra' | 'elasticsearch' | 'kubernetes';

/**
 * The variable for each server: what the script prints (NAME=where), and what points the tests at
 * one already running. For Kubernetes "where" is a kubeconfig file, and the variable is not
 * KUBECONFIG: a developer's own cluster must never be taken for a throwaway one.
 */
const VARIABLES: Record<BackendName, string> = {
  redis: 'REDIS_URL',
  nats: 'NATS_URL',
  minio: 'MINIO_URL',
  nginx: 'NGINX_URL',
  cassandra: 'CASSANDRA_URL',
  elasticsearch: 'ELASTICSEARCH_URL',
  kubernetes: 'TEST_KUBECONFIG',
};

export interface Backend {
  /** Where it listens: a URL (cassandra://host:port/datacenter), or a kubeconfig file's path. */
  readonly url: string;
  /** Stops the server if this call started it (one given or already running is left alone). */
  stop(): Promise<void>;
}

/**
 * Starts (or finds) a server. `settings` are passed to the script, e.g. NGINX_UPSTREAM for the
 * address nginx proxies to, or REDIS_PORT.
 */
export async function backend(
  name: BackendName,
  settings: Record<string, string> = {},
  env = process.env,
): Promise<Backend> {
  const variable = VARIABLES[name];
  const given = env[variable];
  if (given) return { url: given, stop: () => Promise.resolve() };
  const scriptEnv = { ...env, ...settings };
  let stdout: string;
  try {
    ({ stdout } = await run('bash', [BACKENDS, 'up', name], {
      timeout: 1_800_000, // a cold machine may first build the server (go install, Maven)
      env: scriptEnv,
    }));
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(`${name} could not start (tools/backends.sh up ${name}):\n${stderr ?? message}`, {
      cause: error,
    });
  }
  const lines = stdout.split('\n');
  const line = lines.find((l) => l.startsWith(`${variable}=`));
  if (line === undefined) throw new Error(`tools/backends.sh up ${name} printed no ${variable}:\n${stdout}`);
  // STARTED=<process> for each process this call started (for kubernetes: etcd, kube-apiserver).
  const started = lines.some((l) => l.startsWith('STARTED='));
  return {
    url: line.slice(variable.length + 1),
    async stop() {
      if (started) await run('bash', [BACKENDS, 'down', name], { env: scriptEnv });
    },
  };
}
