/**
 * Launching the platform or one of its roles as a real process, the way production runs it:
 * `tessera serve` or `tessera run <service> <role>`, from source, on 127.0.0.1 with a random port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../../apps/tessera/src/main.ts', import.meta.url));

export interface LaunchedProcess {
  /** Where it listens (from its "listening" log line). */
  readonly url: string;
  readonly child: ChildProcess;
  /** Every line it wrote, stdout (JSON logs) and stderr. */
  readonly logs: string[];
  /** Sends `signal` (default SIGTERM) and resolves with how it exited. */
  stop(signal?: NodeJS.Signals): Promise<ProcessExit>;
}

export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface LaunchOptions {
  /** Added to the test's own environment; PORT defaults to 0 (a random free port). */
  readonly env?: Readonly<Record<string, string>>;
  /** Longest wait for the "listening" line (default 60 s: a role may rebuild its ranking first). */
  readonly timeoutMs?: number;
  /** Node's own flags, before the program (e.g. `--import` of a test's hooks). */
  readonly nodeArgs?: readonly string[];
  /** Variables of the test's environment the process must not inherit (before `env` is added). */
  readonly unsetEnv?: readonly string[];
}

/**
 * The shared servers' variables that tools/run-tests.sh exports for the adapter tests: a process
 * launched for a test inherits none of them (they would switch it to distributed mode, on stores
 * other tests use) unless the test passes them itself.
 */
const SERVER_VARIABLES = [
  'NATS_URL',
  'REDIS_URL',
  'CASSANDRA_URL',
  'ELASTICSEARCH_URL',
  'MINIO_URL',
  'S3_URL',
];

function inheritedEnv(unset: readonly string[] = []): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of [...SERVER_VARIABLES, ...unset]) delete env[name];
  return env;
}

/** Runs `tessera <args…>` (e.g. ['run', 'leaderboard', 'api']) and waits until it listens. */
export function launchTessera(
  args: readonly string[],
  options: LaunchOptions = {},
): Promise<LaunchedProcess> {
  const child = spawn(
    process.execPath,
    [
      '--conditions=development',
      '--disable-warning=ExperimentalWarning',
      ...(options.nodeArgs ?? []),
      MAIN,
      ...args,
    ],
    {
      // Random free ports for HTTP and SMTP, so that tests can run side by side.
      env: {
        ...inheritedEnv(options.unsetEnv),
        HOST: '127.0.0.1',
        PORT: '0',
        SMTP_PORT: '0',
        FIX_PORT: '0',
        LOG_LEVEL: 'info',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const logs: string[] = [];
  const timeoutMs = options.timeoutMs ?? 60_000;
  const stop = (signal: NodeJS.Signals = 'SIGTERM'): Promise<ProcessExit> => {
    const exited = waitForExit(child);
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new Error(`tessera ${args.join(' ')} ${why}:\n${logs.join('\n')}`));
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(`did not listen within ${timeoutMs} ms`);
    }, timeoutMs);
    createInterface({ input: child.stderr }).on('line', (line) => logs.push(line));
    createInterface({ input: child.stdout }).on('line', (line) => {
      logs.push(line);
      const entry = parseLogLine(line);
      if (entry?.url !== undefined && entry.msg?.endsWith('listening') === true) {
        clearTimeout(timer);
        resolve({ url: entry.url, child, logs, stop });
      }
    });
    child.once('exit', (code, signal) => fail(`exited (${code ?? signal}) before listening`));
  });
}

function parseLogLine(line: string): { url?: string; msg?: string } | undefined {
  try {
    return JSON.parse(line) as { url?: string; msg?: string };
  } catch {
    return undefined;
  }
}

export function waitForExit(child: ChildProcess): Promise<ProcessExit> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}
