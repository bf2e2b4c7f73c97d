import { readFileSync } from 'node:fs';
import { ConfigError } from '../config.ts';

function read(variable: string, file: string, problems: string[]): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    problems.push(`${variable} cannot be read: ${file} (${reason})`);
    return undefined;
  }
}

/** Reads the PEM pair for HTTPS; both or neither must be configured. */
export function loadTls(certFile?: string, keyFile?: string): { cert: Buffer; key: Buffer } | undefined {
  const hasCert = certFile !== undefined && certFile !== '';
  const hasKey = keyFile !== undefined && keyFile !== '';
  if (!hasCert && !hasKey) return undefined;
  if (!hasCert) throw new ConfigError('TLS_CERT_FILE must be set when TLS_KEY_FILE is set');
  if (!hasKey) throw new ConfigError('TLS_KEY_FILE must be set when TLS_CERT_FILE is set');
  const problems: string[] = [];
  const cert = read('TLS_CERT_FILE', certFile, problems);
  const key = read('TLS_KEY_FILE', keyFile, problems);
  if (cert === undefined || key === undefined) throw new ConfigError(problems.join('\n'));
  return { cert, key };
}
