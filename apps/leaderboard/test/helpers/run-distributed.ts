/**
 * `tools/run-distributed.sh` (what `make run-distributed` runs) as a test drives it: on free ports
 * of its own (never the shared servers'), with the CLI from source, its output kept.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { mintToken } from '@tessera/kit';
import { freePort, waitForExit, type ProcessExit } from '@tessera/testkit';

const SCRIPT = fileURLToPath(new URL('../../../../tools/run-distributed.sh', import.meta.url));
const MAIN = fileURLToPath(new URL('../../../tessera/src/main.ts', import.meta.url));

export interface RunPorts {
  readonly PORT: string;
  readonly API_PORTS: string;
  readonly ARCHIVER_PORT: string;
  readonly REDIS_PORT: string;
  readonly NATS_PORT: string;
  readonly CASSANDRA_PORT: string;
  readonly CASSANDRA_STORAGE_PORT: string;
}

export async function runPorts(): Promise<RunPorts> {
  const ports: number[] = [];
  while (ports.length < 8) {
    const port = await freePort();
    if (!ports.includes(port)) ports.push(port);
  }
  const [nginx, api1, api2, archiver, redis, nats, cql, storage] = ports.map(String);
  return {
    PORT: nginx!,
    API_PORTS: `${api1!} ${api2!}`,
    ARCHIVER_PORT: archiver!,
    REDIS_PORT: redis!,
    NATS_PORT: nats!,
    CASSANDRA_PORT: cql!,
    CASSANDRA_STORAGE_PORT: storage!,
  };
}

export interface DistributedRun {
  readonly child: ChildProcess;
  readonly output: string[];
  /** Sends `signal` and resolves with how the script exited. */
  stop(signal?: NodeJS.Signals): Promise<ProcessExit>;
}

/** Starts the script and resolves once it printed how to get a token (everything is ready). */
export function startRun(dataDir: string, ports: RunPorts, timeoutMs = 600_000): Promise<DistributedRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...ports, DATA_DIR: dataDir, CASSANDRA_HEAP: '512m' };
  // The shared servers' variables must not leak into the run's processes.
  for (const name of ['NATS_URL', 'REDIS_URL', 'CASSANDRA_URL', 'NGINX_URL', 'TESSERA_RUN']) delete env[name];
  env.TESSERA_CMD = `${process.execPath} --conditions=development --disable-warning=ExperimentalWarning ${MAIN}`;
  const child = spawn('bash', [SCRIPT], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const stop = (signal: NodeJS.Signals = 'SIGINT') => {
    const exited = waitForExit(child);
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop('SIGTERM');
      reject(new Error(`run-distributed not ready within ${timeoutMs} ms:\n${output.join('\n')}`));
    }, timeoutMs);
    createInterface({ input: child.stderr }).on('line', (line) => output.push(line));
    createInterface({ input: child.stdout }).on('line', (line) => {
      output.push(line);
      if (line.startsWith('Get a token:')) {
        clearTimeout(timer);
        resolve({ child, output, stop });
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(`run-distributed exited (${code ?? signal}) before it was ready:\n${output.join('\n')}`),
      );
    });
  });
}

/** A token the run's processes accept (they share the secret under DATA_DIR/app). */
export function runToken(dataDir: string, scopes: readonly string[]): Promise<string> {
  const secret = readFileSync(join(dataDir, 'app', 'auth', 'jwt-secret'), 'utf8').trim();
  return mintToken({ secret, sub: 'run-distributed-test', scopes: [...scopes] });
}

/** The pids in DATA_DIR's pid files: servers/<name>.pid and apps/<name>.pid. */
export function pidFiles(dataDir: string, dir: 'servers' | 'apps'): Record<string, number> {
  const pids: Record<string, number> = {};
  for (const file of readdirSync(join(dataDir, dir))) {
    if (file.endsWith('.pid'))
      pids[file.slice(0, -4)] = Number(readFileSync(join(dataDir, dir, file), 'utf8'));
  }
  return pids;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
