/**
 * A role process imports its own service only: not the other services, not the OpenTelemetry SDK
 * when nothing is exported, not the distributed stores' clients on embedded stores. Their modules
 * would sit in its heap, and every full garbage collection marks them: on the leaderboard's api
 * role they doubled the heap and the pause that set the updates' p99 at 2,000/s.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchTessera } from '@tessera/testkit';
import t from 'tap';

const RECORDER = fileURLToPath(new URL('./fixtures/record-imports.ts', import.meta.url));

/**
 * Starts `tessera run <service> <role>` with the import recorder, waits until it listens (or fails
 * after the launcher's deadline, the process killed), stops it: its imports' URLs. Neither an OTLP
 * endpoint from the environment (it would import the SDK) nor tap's NODE_OPTIONS (its loaders would
 * be recorded) reach it; the launcher drops the shared servers' URLs that `make test` exports.
 */
async function importsOf(service: string, role: string, env: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-imports-'));
  try {
    const file = join(dir, 'imports.txt');
    const launched = await launchTessera(['run', service, role], {
      nodeArgs: ['--import', RECORDER],
      unsetEnv: ['OTEL_EXPORTER_OTLP_ENDPOINT', 'NODE_OPTIONS'],
      env: { ...env, DATA_DIR: dir, RECORD_IMPORTS_FILE: file },
    });
    await launched.stop();
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

t.test('the leaderboard api role on embedded stores imports the leaderboard alone', async (t) => {
  const imports = await importsOf('leaderboard', 'api', {
    AUTH_JWT_SECRET: 'role-imports-test-0123456789abcdef',
  });
  // The recorder works: the role's own service is there.
  t.ok(
    imports.some((url) => url.includes('/apps/leaderboard/src/')),
    'the leaderboard is imported',
  );
  const unwanted = [
    /\/apps\/mail\//,
    /\/apps\/exchange\//,
    /\/node_modules\/@opentelemetry\/sdk-/,
    /\/node_modules\/cassandra-driver\//,
    /\/apps\/leaderboard\/src\/adapters\/(redis|nats|cassandra\/(?!cassandra-url))/,
    // The rate limits' Redis client without REDIS_URL, the pretty printer when logging JSON.
    /\/node_modules\/(ioredis|@nats-io\/[^/]+|pino-pretty)\//,
  ];
  for (const pattern of unwanted) {
    t.same(
      imports.filter((url) => pattern.test(url)),
      [],
      `nothing matching ${pattern}`,
    );
  }
});

t.test('with an OTLP endpoint, the same role imports the OpenTelemetry SDK', async (t) => {
  const imports = await importsOf('leaderboard', 'api', {
    AUTH_JWT_SECRET: 'role-imports-test-0123456789abcdef',
    // Nothing listens there: exports fail quietly, after the test.
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
  });
  t.ok(imports.some((url) => url.includes('/node_modules/@opentelemetry/sdk-trace-base/')));
});
