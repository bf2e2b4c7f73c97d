/**
 * The gateway role's FIX listener: the acceptor on FIX_PORT (HOST as for HTTP), its sequence
 * numbers in DATA_DIR/exchange/fix.db, logons from FIX_CREDENTIALS.
 */
import { join } from 'node:path';
import { openSqlite, type ServiceContext, type StopRole } from '@tessera/kit';
import type { ExchangeInstance } from '../descriptor.ts';
import { FixAcceptor } from './acceptor.ts';
import { authenticator } from './credentials.ts';
import { SqliteSequenceStore } from './sqlite-sequence-store.ts';

export async function startFixAcceptor(
  instance: ExchangeInstance,
  context: ServiceContext,
): Promise<StopRole> {
  const { config } = instance;
  // A process crash loses nothing written (WAL); a power loss may lose the last numbers, as
  // the journal's `normal` mode would.
  const db = openSqlite(join(context.platform.DATA_DIR, 'exchange', 'fix.db'), { synchronous: 'normal' });
  let acceptor: FixAcceptor;
  try {
    acceptor = await FixAcceptor.start({
      port: config.FIX_PORT,
      host: context.platform.HOST,
      compId: config.FIX_COMP_ID,
      venue: instance.service,
      store: new SqliteSequenceStore(db),
      authenticate: authenticator(config.FIX_CREDENTIALS),
      logger: context.logger,
      now: context.now,
    });
  } catch (error) {
    db.close();
    throw error;
  }
  context.logger.info({ port: acceptor.port }, 'FIX acceptor listening');
  return async () => {
    await acceptor.close();
    db.close();
  };
}
