import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateSecret, mintToken } from '@tessera/kit';
import { tool } from '@tessera/testkit';
import t from 'tap';
import { startPlatform } from '../src/platform.ts';

t.setTimeout(600_000); // a cold machine installs schemathesis first

/**
 * schemathesis fuzzes the operations of the embedded platform's OpenAPI document: any 5xx, any
 * answer that breaks its documented schema, status or content type, or a wrong answer to an
 * undeclared method fails the test. FUZZ_SEED and FUZZ_EXAMPLES change the run.
 */
t.test('every HTTP API survives schemathesis, from its own OpenAPI document', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-fuzz-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const platform = await startPlatform({
    env: {
      PORT: '0',
      SMTP_PORT: '0',
      FIX_PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      // Long generated values should meet the schemas' 400s, not the edge's 414 first.
      HTTP_MAX_URL_LENGTH: '65536',
    },
    handleSignals: false,
  });
  t.teardown(() => platform.close());
  const token = await mintToken({
    secret: loadOrCreateSecret(dataDir),
    sub: 'fuzzer',
    scopes: ['scores:write', 'scores:read', 'profiles:write', 'trade', 'admin', 'mail'],
  });
  const st = await tool('schemathesis');
  const args = [
    'run',
    `${platform.url}/docs/openapi.json`,
    '--header',
    `Authorization: Bearer ${token}`,
    '--checks',
    'all',
    // Schema-valid is not always acceptable: the services' own rules refuse some well-formed input
    // with a documented, coded 4xx (an unknown symbol, insufficient funds, a reserved folder name,
    // a cursor the server never issued). Every other check stays on.
    '--exclude-checks',
    'positive_data_acceptance',
    // A long poll waits up to 30 s by design; the mail route tests cover it.
    '--exclude-path',
    '/v1/events/poll',
    '--max-examples',
    process.env.FUZZ_EXAMPLES ?? '30',
    '--seed',
    process.env.FUZZ_SEED ?? '20261122',
    '--workers',
    '1',
    '--no-color',
  ];
  const result = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(st, args, { maxBuffer: 64 * 1024 * 1024, timeout: 540_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
  // On stderr, not as a TAP comment: schemathesis's summary lines confuse the TAP parser.
  const summary = result.output.split('\n').filter((line) => /generated|failures? in/.test(line));
  console.error(`schemathesis: ${summary.map((line) => line.trim()).join(' · ')}`);
  t.equal(result.code, 0, result.code === 0 ? 'no failure found' : result.output);
});
