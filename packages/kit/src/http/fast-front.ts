/**
 * A plain-HTTP front for the fast routes: each new connection is read here first, and requests
 * the fast routes answer are parsed and answered on the socket directly, without node:http's
 * request and response objects, streams and per-request ticks (about half of bare node:http's
 * CPU per request: measured in docs/benchmarks.md). The first request that is not plainly a fast
 * one (fast-front-head.ts), or that a fast route declines, hands the connection to node:http for
 * good: that request's bytes and everything after them go back into the socket, and node:http
 * reads them as if it had read the connection from the start. So node:http and fastify still
 * answer every other request, every malformed one and every error, with their limits. (A request
 * handed over is offered to the fast routes again on node:http's side, fast-routes.ts#serve: a
 * declined one did nothing, so that is a second look, never a second effect.)
 *
 * Rules that keep this equal to node:http for the requests it takes:
 *   - one request of a connection at a time: the next is read only once the answer is written, so
 *     answers go out in order and a declined request has had no effect when node:http gets it;
 *   - only whole requests: one that has not fully arrived goes to node:http, whose header and
 *     request deadlines then hold (a slow client cannot hold a connection here); a connection that
 *     sends nothing at all is closed after the header deadline (node:http would first write a 408);
 *   - the answer's bytes are node:http's for the same answer (status line, headers in that order,
 *     Date, Connection: keep-alive, Keep-Alive), checked by a test against node:http itself;
 *   - an idle connection closes after the keep-alive timeout (and node:http's grace beyond it), as
 *     node:http's does, but never while an answer is due; closing the server closes the idle ones
 *     here too, and the busy ones after their answer;
 *   - once a write's answer is on its way it is never handed over (a broken answer closes the
 *     connection instead), and an answer's headers must pass node:http's own checks.
 * Plain HTTP only: a TLS server keeps node:https for everything.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { AnswerText } from './fast-front-answer.ts';
import { FrontConnection, type FrontOptions, type Timing } from './fast-front-connection.ts';
import type { FastRoutes } from './fast-routes.ts';

export type { FrontOptions } from './fast-front-connection.ts';

/**
 * Puts the front before node:http's own connection handling on `server`: node:http gets a
 * connection only when the front hands it over.
 */
export function installFastFront(server: Server, fast: FastRoutes, options: FrontOptions): void {
  const nodeListeners = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  const handOver = (socket: Socket) => {
    for (const listener of nodeListeners) listener.call(server, socket);
  };
  const open = new Set<FrontConnection>();
  const answerText = new AnswerText(Math.floor(options.keepAliveTimeoutMs / 1000));
  // Node closes an idle connection this long after the advertised timeout (1 s in Node 24).
  const grace = (server as Server & { keepAliveTimeoutBuffer?: number }).keepAliveTimeoutBuffer ?? 1000;
  const timing: Timing = { ...options, idleTimeoutMs: options.keepAliveTimeoutMs + grace };
  let closing = false;
  server.on('connection', (socket: Socket) => {
    if (closing) return handOver(socket);
    const connection = new FrontConnection(socket, fast, timing, answerText, {
      handOver: (s) => {
        open.delete(connection);
        handOver(s);
      },
      closed: () => open.delete(connection),
      closing: () => closing,
    });
    open.add(connection);
  });
  // node:http closes its own connections on these; the front closes its own beside them.
  const closeIdle = server.closeIdleConnections.bind(server);
  const closeAll = server.closeAllConnections.bind(server);
  server.closeIdleConnections = () => {
    closing = true;
    for (const connection of open) connection.closeWhenIdle();
    closeIdle();
  };
  server.closeAllConnections = () => {
    closing = true;
    for (const connection of open) connection.destroy();
    closeAll();
  };
}
