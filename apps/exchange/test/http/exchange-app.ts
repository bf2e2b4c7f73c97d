/**
 * What the HTTP tests of the exchange share: the kit's app with a test secret, an ExchangeService
 * on a node:sqlite journal in a temporary directory with a clock that ticks per call, and the
 * plugin under test registered on it; all of it closed and removed when the test ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { FastifyInstance } from 'fastify';
import type { Test } from 'tap';
import { createAuthenticator, createHttpApp, createLogger, mintToken, openSqlite } from '@tessera/kit';
import { SqliteJournal } from '../../src/adapters/embedded/sqlite-journal.ts';
import { WorkerJournal } from '../../src/adapters/embedded/worker-journal.ts';
import { exchangeRoutes } from '../../src/http/routes.ts';
import type { ExchangeRules } from '../../src/core/order-manager.ts';
import { ExchangeService } from '../../src/service.ts';
import { rules, T0 } from '../core/exchange-rules.ts';

export const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

export interface ExchangeApp {
  readonly app: FastifyInstance;
  readonly service: ExchangeService;
  /** The journal's connection (a test may close it to make a commit fail). */
  readonly db: DatabaseSync;
  /** A bearer token for `sub` with these scopes, signed with SECRET. */
  readonly token: (sub: string, ...scopes: string[]) => Promise<string>;
}

export interface ExchangeAppOptions {
  /** Registers the plugin under test. */
  readonly register: (app: FastifyInstance, service: ExchangeService) => PromiseLike<unknown>;
  readonly limits?: ExchangeRules['limits'];
  /** Listen on a free loopback port (a real socket) instead of `ready()` for inject. */
  readonly listen?: boolean;
  /** The kit's failed-authentication budget per address and minute (its default otherwise). */
  readonly authFailureLimitPerMinute?: number;
  /** false: no rate limits, and so the fast answers at the edge (as in the benchmarks). */
  readonly rateLimitEnabled?: boolean;
  /**
   * `thread`: the journal's writer thread with fsynced commits (as `make run`), where a batch is
   * written while the next is applied; `inline` (default): the cheaper node:sqlite journal.
   */
  readonly journal?: 'inline' | 'thread';
}

export async function exchangeApp(t: Test, options: ExchangeAppOptions): Promise<ExchangeApp> {
  const dir = mkdtempSync(join(tmpdir(), 'ex-http-'));
  const app = await createHttpApp({
    name: 'exchange-test',
    version: '0.0.0',
    logger: createLogger({ level: 'silent', name: 'test' }),
    authenticator: createAuthenticator({ secret: SECRET }),
    ...(options.rateLimitEnabled === undefined ? {} : { rateLimitEnabled: options.rateLimitEnabled }),
    ...(options.authFailureLimitPerMinute === undefined
      ? {}
      : { authFailureLimitPerMinute: options.authFailureLimitPerMinute }),
  });
  let now = T0;
  const file = join(dir, 'x.db');
  const db = openSqlite(file, { synchronous: 'normal' });
  const service = ExchangeService.open({
    rules: options.limits === undefined ? rules() : rules({ limits: options.limits }),
    journal:
      options.journal === 'thread'
        ? new WorkerJournal({ file, synchronous: 'full', reader: db })
        : new SqliteJournal(db),
    now: () => now++,
  });
  await options.register(app, service);
  if (options.listen === true) await app.listen({ port: 0, host: '127.0.0.1' });
  else await app.ready();
  t.teardown(async () => {
    await app.close();
    await service.close();
    if (db.isOpen) db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    app,
    service,
    db,
    token: (sub, ...scopes) => mintToken({ secret: SECRET, sub, scopes }),
  };
}

/**
 * The exchange's routes on a real socket with no rate limits (so with the fast answers at the
 * edge), and a record of every request that reached fastify at all: one answered at the edge
 * never does.
 */
export async function fastEdgeApp(
  t: Test,
  journal: ExchangeAppOptions['journal'] = 'inline',
): Promise<ExchangeApp & { readonly port: number; readonly reachedFastify: string[] }> {
  const reachedFastify: string[] = [];
  const exchange = await exchangeApp(t, {
    listen: true,
    rateLimitEnabled: false,
    journal,
    register: (app, service) => {
      app.addHook('onRequest', (request, _reply, done) => {
        reachedFastify.push(`${request.method} ${request.url}`);
        done();
      });
      return app.register(exchangeRoutes, { service, tradeLimitPerMinute: 1_000, readLimitPerMinute: 1_000 });
    },
  });
  const { port } = exchange.app.server.address() as AddressInfo;
  return { ...exchange, port, reachedFastify };
}
