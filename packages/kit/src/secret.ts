import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './config.ts';

function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

/**
 * The HS256 secret for embedded/dev mode: the environment wins; otherwise one is generated on
 * first start and kept under DATA_DIR so tokens minted earlier stay valid across restarts.
 */
export function loadOrCreateSecret(dataDir: string, fromEnv?: string): string {
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  const dir = join(dataDir, 'auth');
  const file = join(dir, 'jwt-secret');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    // 'wx' fails if the file exists, so two processes starting together cannot overwrite each
    // other's secret; the loser reads the winner's below.
    writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if (!isErrno(error, 'EEXIST')) throw error;
  }
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new ConfigError(`${file} must hold a secret of at least 32 characters`);
  return secret;
}
