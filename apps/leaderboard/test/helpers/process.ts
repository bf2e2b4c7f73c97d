import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const API_ROLE = fileURLToPath(new URL('../../src/roles/api.ts', import.meta.url));

export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Lines the server logged (JSON). */
  readonly logs: string[];
}

/** Starts the leaderboard `api` role as a real process on 127.0.0.1 and waits until it listens. */
export function startApiProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    ['--conditions=development', '--disable-warning=ExperimentalWarning', API_ROLE],
    {
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const logs: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in 30 s:\n${logs.join('\n')}`));
    }, 30_000);
    child.stderr.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
    createInterface({ input: child.stdout }).on('line', (line) => {
      logs.push(line);
      try {
        const entry = JSON.parse(line) as { url?: string; msg?: string };
        if (entry.url !== undefined && entry.msg?.endsWith('listening')) {
          clearTimeout(timer);
          resolve({ url: entry.url, child, logs });
        }
      } catch {
        // not a log line
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before listening:\n${logs.join('\n')}`));
    });
  });
}

export function waitForExit(
  child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}
