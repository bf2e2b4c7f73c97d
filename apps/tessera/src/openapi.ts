/**
 * The embedded platform's OpenAPI document, as /docs/openapi.json serves it: generated from the
 * route schemas of every service. `tessera openapi --out docs/openapi.json` writes the copy kept in
 * the repository (a test fails when it drifts from the code).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPlatform } from './platform.ts';

/** Starts the platform on a random port with throwaway data, reads its document, stops it. */
export async function platformOpenApi(): Promise<unknown> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-openapi-'));
  try {
    const platform = await startPlatform({
      env: {
        PORT: '0',
        SMTP_PORT: '0',
        FIX_PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        AUTH_JWT_SECRET: 'openapi-generation-only-0123456789abcdef',
      },
      handleSignals: false,
    });
    try {
      return platform.app.swagger();
    } finally {
      await platform.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The text written to docs/openapi.json: stable key order as generated, two-space indent. */
export function openApiText(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
