/** helm and its plugins with their state in a temporary directory (never the developer's own). */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { tempDir, tool, toolsPath } from '@tessera/testkit';
import type { Test } from 'tap';

export const run = promisify(execFile);
export const CHART = fileURLToPath(new URL('../../../charts/tessera', import.meta.url));
export const VALUES = fileURLToPath(new URL('../../values', import.meta.url));

export interface Helm {
  readonly helm: string;
  readonly env: NodeJS.ProcessEnv;
  readonly dir: string;
}

export async function helmFor(t: Test): Promise<Helm> {
  const helm = await tool('helm');
  const dir = tempDir(t, 'tessera-helm-');
  const env = {
    ...process.env,
    PATH: toolsPath(),
    HELM_CACHE_HOME: join(dir, 'cache'),
    HELM_CONFIG_HOME: join(dir, 'config'),
    HELM_DATA_HOME: join(dir, 'data'),
  };
  return { helm, env, dir };
}

/** The standard output and error of a command that must fail; an error if it succeeded. */
export async function failure(command: Promise<unknown>): Promise<string> {
  try {
    await command;
  } catch (error) {
    const { stdout, stderr, message } = error as { stdout?: string; stderr?: string; message: string };
    return stdout === undefined && stderr === undefined ? message : `${stdout ?? ''}${stderr ?? ''}`;
  }
  throw new Error('the command succeeded, but it should have failed');
}
