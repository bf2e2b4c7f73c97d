import t from 'tap';
import { PassThrough } from 'node:stream';
import { createLogger, isInteractive, printBanner } from '../src/logger.ts';

function sink() {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c.toString()));
  return { stream, text: () => chunks.join('') };
}

t.test('createLogger names the logger and honours the level', async (t) => {
  const logger = createLogger({ level: 'warn', name: 'leaderboard' });
  t.equal(logger.level, 'warn');
  t.same(logger.bindings(), { name: 'leaderboard' });
  t.notOk(logger.isLevelEnabled('info'));
  t.ok(logger.isLevelEnabled('error'));
});

t.test('json: one JSON object per line, authorization redacted', async (t) => {
  const out = sink();
  const logger = createLogger({ level: 'info', name: 'svc', format: 'json', destination: out.stream });
  logger.info({ headers: { authorization: 'Bearer secret-token' } }, 'hello');
  await new Promise((resolve) => setImmediate(resolve));
  const line = JSON.parse(out.text().trim()) as Record<string, unknown>;
  t.match(line, { name: 'svc', msg: 'hello', headers: { authorization: '[redacted]' } });
});

t.test('pretty: readable lines, not JSON, still redacted', async (t) => {
  const out = sink();
  const logger = createLogger({ level: 'info', name: 'svc', format: 'pretty', destination: out.stream });
  logger.info({ headers: { authorization: 'Bearer secret-token' } }, 'listening');
  await new Promise((resolve) => setImmediate(resolve));
  const text = out.text();
  t.match(text, /INFO.*\(svc\).*listening/);
  t.throws(() => JSON.parse(text));
  t.notMatch(text, /secret-token/);
});

t.test('auto follows whether standard output is a terminal', async (t) => {
  // Under tap, standard output is a pipe: auto means JSON.
  t.equal(isInteractive, false);
  const out = sink();
  createLogger({ level: 'info', name: 'svc', destination: out.stream }).info('x');
  await new Promise((resolve) => setImmediate(resolve));
  t.doesNotThrow(() => JSON.parse(out.text()));
});

t.test('printBanner sets the lines off with blank ones', async (t) => {
  const out = sink();
  printBanner(['Tessera is up at http://127.0.0.1:8080', 'Docs: http://127.0.0.1:8080/docs'], out.stream);
  printBanner([], out.stream);
  t.equal(out.text(), '\n  Tessera is up at http://127.0.0.1:8080\n  Docs: http://127.0.0.1:8080/docs\n\n');
});
