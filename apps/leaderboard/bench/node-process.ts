/** Node processes of a benchmark's own: started until they log that they listen, stopped by SIGTERM. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

/** Starts a Node process that logs `{"msg":"… listening","url":…}` once it listens. */
export async function startNode(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['--conditions=development', '--disable-warning=ExperimentalWarning', ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env,
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { url?: string; msg?: string };
        if (entry.url && entry.msg?.endsWith('listening')) resolve(entry.url);
      } catch {
        // not a log line
      }
    });
  });
  return { url, child };
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}
