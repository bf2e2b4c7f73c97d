/**
 * The real servers for tests: started through `tools/backends.sh` on loopback, or taken from the
 * environment (REDIS_URL, NATS_URL) when one is already running. A server that cannot start is a
 * failure with its log, never a skip.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const BACKENDS = fileURLToPath(new URL('../../../tools/backends.sh', import.meta.url));

export type BackendName = 'redis' | 'nats' | 'minio' | 'nginx';

const ENV: Record<BackendName, string> = {
  redis: 'REDIS_URL',
  nats: 'NATS_URL',
  minio: 'MINIO_URL',
  nginx: 'NGINX_URL',
};

export interface Backend {
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
  const given = env[ENV[name]];
  if (given) return { url: given, stop: () => Promise.resolve() };
  let stdout: string;
  try {
    ({ stdout } = await run('bash', [BACKENDS, 'up', name], {
      timeout: 600_000,
      env: { ...env, ...settings },
    }));
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(`${name} could not start (tools/backends.sh up ${name}):\n${stderr ?? message}`, {
      cause: error,
    });
  }
  const line = stdout.split('\n').find((l) => l.startsWith(`${ENV[name]}=`));
  if (line === undefined) throw new Error(`tools/backends.sh up ${name} printed no ${ENV[name]}:\n${stdout}`);
  return {
    url: line.slice(ENV[name].length + 1),
    async stop() {
      await run('bash', [BACKENDS, 'down', name]);
    },
  };
}
