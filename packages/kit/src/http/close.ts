/**
 * Closes an app within a deadline. fastify's close stops accepting, closes idle connections and
 * then waits for the others, for as long as they take: a client that never finishes its request
 * (or a handler that never answers) would hold the process, and the stores' flush in the app's
 * onClose hooks would never run. At the deadline every connection still open is closed, so the
 * server closes and the onClose hooks run.
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../logger.ts';

export async function closeWithDeadline(
  app: FastifyInstance,
  timeoutMs: number,
  logger: Logger,
): Promise<void> {
  const timer = setTimeout(() => {
    logger.warn({ timeoutMs }, 'shutdown deadline passed: closing the connections still open');
    app.server.closeAllConnections();
  }, timeoutMs);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
  }
}
