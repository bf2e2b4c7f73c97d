/**
 * An exchange with its FIX acceptor in a temporary directory, for the FIX tests: the service on
 * its sqlite journal, the acceptor on a free port with its sequence store, REST routes through
 * fastify's inject. `restart()` closes both and opens them again on the same files.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { FastifyInstance } from 'fastify';
import type { Test } from 'tap';
import { createAuthenticator, createHttpApp, createLogger, mintToken, openSqlite } from '@tessera/kit';
import { SqliteJournal } from '../../src/adapters/embedded/sqlite-journal.ts';
import { FixAcceptor } from '../../src/fix/acceptor.ts';
import { authenticator, parseCredentials } from '../../src/fix/credentials.ts';
import { SqliteSequenceStore } from '../../src/fix/sqlite-sequence-store.ts';
import { exchangeRoutes } from '../../src/http/routes.ts';
import { ExchangeService } from '../../src/service.ts';
import { rules } from '../core/exchange-rules.ts';

const SECRET = 'fix-test-secret-that-is-long-enough-for-hs256-0123';
export const CREDENTIALS = 'CLIENT1:pw1:alice,CLIENT2:pw2:bob';

export interface Venue {
  readonly service: ExchangeService;
  readonly acceptor: FixAcceptor;
  /** A REST call as `account` (scope trade). */
  rest(
    account: string,
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    body?: object,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
}

export async function startVenue(t: Test): Promise<{ current: () => Venue; restart: () => Promise<Venue> }> {
  const dir = mkdtempSync(join(tmpdir(), 'ex-fix-'));
  const logger = createLogger({ level: 'silent', name: 'fix-test' });
  let venue: Venue;
  let closeAll: () => Promise<void> = async () => {};
  const open = async (): Promise<Venue> => {
    const journalDb = openSqlite(join(dir, 'journal.db'), { synchronous: 'normal' });
    const fixDb: DatabaseSync = openSqlite(join(dir, 'fix.db'), { synchronous: 'normal' });
    const service = ExchangeService.open({
      rules: rules({ limits: { dailyCap: 1_000_000, maxQuantity: 10_000, maxNotional: 100_000_000 } }),
      journal: new SqliteJournal(journalDb),
    });
    const acceptor = await FixAcceptor.start({
      port: 0,
      host: '127.0.0.1',
      compId: 'TESSERA',
      venue: service,
      store: new SqliteSequenceStore(fixDb),
      authenticate: authenticator(parseCredentials(CREDENTIALS)),
      logger,
    });
    const app: FastifyInstance = await createHttpApp({
      name: 'fix-test',
      version: '0.0.0',
      logger,
      authenticator: createAuthenticator({ secret: SECRET }),
    });
    await app.register(exchangeRoutes, {
      service,
      tradeLimitPerMinute: 100_000,
      readLimitPerMinute: 100_000,
    });
    await app.ready();
    closeAll = async () => {
      await acceptor.close(500);
      await app.close();
      await service.close();
      fixDb.close();
      journalDb.close();
    };
    return {
      service,
      acceptor,
      async rest(account, method, url, body) {
        const token = await mintToken({ secret: SECRET, sub: account, scopes: ['trade'] });
        const res = await app.inject({
          method,
          url,
          headers: { authorization: `Bearer ${token}` },
          ...(body === undefined ? {} : { payload: body }),
        });
        return { status: res.statusCode, body: res.json() };
      },
    };
  };
  venue = await open();
  t.teardown(async () => {
    await closeAll();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    current: () => venue,
    async restart() {
      await closeAll();
      venue = await open();
      return venue;
    },
  };
}
