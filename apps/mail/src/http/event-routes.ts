/**
 * Push to online clients (docs/mail-events.md): the WebSocket `GET /v1/events` and its
 * long-polling fallback `GET /v1/events/poll`, carrying the same events with the same seq.
 */
import type { FastifyPluginCallback } from 'fastify';
import type { WebSocket } from 'ws';
import type { MailService } from '../service.ts';
import { auth, tags, userOf } from './route-common.ts';
import { pollQuerySchema, pollReplySchema, socketQuerySchema } from './schemas.ts';
import { pushView } from './views.ts';

export interface EventRoutesOptions {
  readonly service: MailService;
  /** How often a socket reads the backlog unprompted (events written by other processes). */
  readonly catchUpMs?: number;
  readonly pingMs?: number;
}

/** The subprotocol a browser offers beside `bearer.<token>`, and the one the server answers. */
export const EVENTS_PROTOCOL = 'tessera.events.v1';

// A client this far behind is cut off (it reconnects with `since`) rather than buffered without end.
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
const CLOSE_TRY_AGAIN_LATER = 1013;

// Keeps the socket open while its pongs come back; a dead peer is dropped at the next ping.
function keepAlive(socket: WebSocket, pingMs: number): () => void {
  let alive = true;
  socket.on('pong', () => {
    alive = true;
  });
  const timer = setInterval(() => {
    if (!alive) return socket.terminate();
    alive = false;
    socket.ping();
  }, pingMs);
  timer.unref();
  return () => clearInterval(timer);
}

export const eventRoutes: FastifyPluginCallback<EventRoutesOptions> = (app, options, done) => {
  const { service } = options;
  // @fastify/websocket is the kit's (registered once per app): it answers with
  // `tessera.events.v1` when offered, never echoes `bearer.<token>`, and closes the socket of a
  // refused handshake.
  app.get<{ Querystring: { since?: number } }>(
    '/v1/events',
    {
      websocket: true,
      schema: {
        tags,
        summary: 'WebSocket: new mail and changes (token as header or bearer.<token> subprotocol)',
        querystring: socketQuerySchema,
      },
      config: { auth: { ...auth, webSocket: true } },
    },
    (socket, request) => {
      const user = userOf(request);
      const { since } = request.query;
      const feed = service.feed(user, {
        ...(since === undefined ? {} : { since }),
        catchUpMs: options.catchUpMs ?? 1000,
        send: (record) => {
          if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
            socket.close(CLOSE_TRY_AGAIN_LATER, 'too far behind: reconnect with since');
            return;
          }
          socket.send(JSON.stringify(pushView(record)));
        },
        onError: (error) => {
          request.log.error({ err: error }, 'event feed failed');
          socket.close(CLOSE_TRY_AGAIN_LATER, 'event feed failed: reconnect with since');
        },
      });
      const stopPing = keepAlive(socket, options.pingMs ?? 30_000);
      socket.once('close', () => {
        feed.close();
        stopPing();
      });
    },
  );

  app.get<{ Querystring: { since: number; wait_ms: number } }>(
    '/v1/events/poll',
    {
      schema: {
        tags,
        summary: 'Long poll: the events after `since`, waiting up to wait_ms for one',
        querystring: pollQuerySchema,
        response: { 200: pollReplySchema },
      },
      config: { auth },
    },
    async (request, reply) => {
      const { since, wait_ms } = request.query;
      // A client that goes away ends its wait instead of holding a listener until the timeout
      // (the response's close, not the request's: that one fires once the request is read).
      const controller = new AbortController();
      reply.raw.once('close', () => controller.abort());
      const records = await service.poll(userOf(request), since, {
        waitMs: wait_ms,
        limit: 100,
        signal: controller.signal,
      });
      return { data: records.map(pushView), next_since: records.at(-1)?.seq ?? since };
    },
  );
  done();
};
