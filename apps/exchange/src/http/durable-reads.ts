/**
 * Reads leave once what they show is durable. A read is answered from the state in memory, which
 * may hold commands whose batch is still being written (the journal's writer thread writes one
 * batch while the next is applied): a client must not read a fill or a balance that a crash would
 * lose. So the body is taken at once, as always, and held until the commit of every command it
 * may show (service.readsWait): nothing when all is durable, at most one group commit otherwise.
 */
import type { FastifyInstance } from 'fastify';
import type { ExchangeService } from '../service.ts';

/** An onSend hook for the GET routes of the plugin `app` is (its encapsulated context). */
export function holdReadsUntilDurable(app: FastifyInstance, service: ExchangeService): void {
  app.addHook('onSend', (request, _reply, payload, done) => {
    const wait = request.method === 'GET' ? service.readsWait() : undefined;
    if (wait === undefined) {
      done(null, payload);
      return;
    }
    wait.then(
      () => done(null, payload),
      // A commit failed (EX_JOURNAL_FAILED): what the read showed may be lost.
      (error: Error) => done(error),
    );
  });
}
