import { execFile } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const INSTALL = fileURLToPath(new URL('../../../tools/install.sh', import.meta.url));

export type ToolName = 'helm' | 'kubeconform' | 'k6' | 'schemathesis';

/** Installs a command-line tool if needed (tools/install.sh) and returns its path in the cache. */
export async function tool(name: ToolName, env = process.env): Promise<string> {
  try {
    await run('bash', [INSTALL, name], { timeout: 900_000 });
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(`${name} could not be installed (tools/install.sh ${name}):\n${stderr ?? message}`, {
      cause: error,
    });
  }
  const cache = env.TESSERA_CACHE ?? join(homedir(), '.cache', 'tessera');
  // schemathesis lives in the cache's Python virtual environment; Go tools in its bin/.
  return name === 'schemathesis' ? join(cache, 'venv', 'bin', 'st') : join(cache, 'bin', name);
}
