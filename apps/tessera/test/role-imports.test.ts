/**
 * A role process imports its own service only: not the other services, not the OpenTelemetry SDK
 * when nothing is exported, not the distributed stores' clients on embedded stores. Their modules
 * would sit in its heap, and every full garbage collection marks them: on the leaderboard's api
 * role they doubled the heap and the pause that set the updates' p99 at 2,000/s.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const RECORDER = fileURLToPath(new URL('./fixtures/record-imports.ts', import.meta.url));

/**
 * This process's environment without what would choose the distributed stores or an OTLP export
 * (`make test` exports the shared servers' URLs to every test).
 */
function embeddedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['NATS_URL', 'REDIS_URL', 'CASSANDRA_URL', 'OTEL_EXPORTER_OTLP_ENDPOINT'])
    delete env[name];
  return env;
}

/** Starts `tessera run <service> <role>`, waits until it listens, stops it; its imports' URLs. */
async function importsOf(service: string, role: string, env: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-imports-'));
  try {
    const file = join(dir, 'imports.txt');
    const child = spawn(
      process.execPath,
      [
        '--conditions=development',
        '--disable-warning=ExperimentalWarning',
        '--import',
        RECORDER,
        MAIN,
        'run',
        service,
        role,
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: {
          ...embeddedEnv(),
          ...env,
          DATA_DIR: dir,
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
          RECORD_IMPORTS_FILE: file,
        },
      },
    );
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`tessera run ${service} ${role} exited with ${code}`)));
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (line.includes('listening')) resolve();
      });
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
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
