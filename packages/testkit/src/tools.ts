import { execFile } from 'node:child_process';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const INSTALL = fileURLToPath(new URL('../../../tools/install.sh', import.meta.url));

export type ToolName =
  'helm' | 'kubeconform' | 'k6' | 'helm-unittest' | 'chart-testing' | 'etcd-client' | 'schemathesis';

/** The tools' cache (tools/lib.sh: TESSERA_CACHE, default ~/.cache/tessera). */
export function toolCache(env = process.env): string {
  return env.TESSERA_CACHE ?? join(homedir(), '.cache', 'tessera');
}

/** Where each tool's command is: Go tools in the cache's bin/, Python ones in its venv, Debian's on PATH. */
function command(name: ToolName, cache: string): string {
  switch (name) {
    case 'schemathesis':
      return join(cache, 'venv', 'bin', 'st');
    case 'chart-testing':
      return join(cache, 'bin', 'ct');
    case 'etcd-client':
      return 'etcdctl';
    default:
      return join(cache, 'bin', name);
  }
}

/** Installs a command-line tool if needed (tools/install.sh) and returns its command. */
export async function tool(name: ToolName, env = process.env): Promise<string> {
  try {
    await run('bash', [INSTALL, name], { timeout: 1_800_000 });
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(`${name} could not be installed (tools/install.sh ${name}):\n${stderr ?? message}`, {
      cause: error,
    });
  }
  return command(name, toolCache(env));
}

/**
 * PATH with the cache's commands first: tools that run others (chart-testing runs helm, yamllint
 * and yamale) find the pinned ones.
 */
export function toolsPath(env = process.env): string {
  const cache = toolCache(env);
  return [join(cache, 'bin'), join(cache, 'venv', 'bin'), env.PATH ?? ''].join(delimiter);
}
