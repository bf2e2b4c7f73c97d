/**
 * The mail REST API over an existing embedded data directory, for the search benchmark to load
 * with wrk: BENCH_DATA_DIR, BENCH_SECRET (tokens are HS256 with it). Logs a JSON line
 * `{"msg":"mail listening","url":…}` once it listens (what testkit's startPinned waits for);
 * rate limits off, consumers off (nothing is delivered while it runs).
 */
import { createAuthenticator, createHttpApp, createLogger } from '@tessera/kit';
import { openEmbeddedMail } from '../src/adapters/embedded/open-embedded.ts';
import { readMailConfig } from '../src/config.ts';
import { mailRoutes } from '../src/http/routes.ts';
import { startMail } from '../src/mail.ts';

const dataDir = process.env.BENCH_DATA_DIR;
const secret = process.env.BENCH_SECRET;
if (dataDir === undefined || secret === undefined)
  throw new Error('BENCH_DATA_DIR and BENCH_SECRET are needed');

const unreachable = (): Promise<never> => Promise.reject(new Error('no DNS in the benchmark'));
const ports = openEmbeddedMail({ dataDir, synchronous: 'normal' });
const mail = await startMail({
  config: readMailConfig({ SMTP_PORT: '0' }),
  ports,
  smtpIn: false,
  consumers: false,
  parseThread: false,
  resolver: { resolveMx: unreachable, resolve4: unreachable, resolve6: unreachable },
  verifySender: () => Promise.resolve({ spf: 'none', dkim: 'none', dmarc: 'none' }),
});
const app = await createHttpApp({
  name: 'mail-search-bench',
  version: '0.0.0',
  logger: createLogger({ level: 'silent', name: 'bench' }),
  authenticator: createAuthenticator({ secret }),
  rateLimitEnabled: false,
});
await app.register(mailRoutes, {
  service: mail.service,
  sendLimitPerMinute: 60,
  sendBodyLimit: 2 * 1024 * 1024,
});
const url = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(JSON.stringify({ msg: 'mail listening', url }));

process.once('SIGTERM', () => {
  void (async () => {
    await app.close();
    await mail.close();
    await ports.close();
    process.exit(0);
  })();
});
