/**
 * WebSocket routes for every service: `@fastify/websocket` registered once, at the app's root.
 * It listens to the HTTP server's `upgrade` event, so a second registration (one per service
 * plugin) would dispatch every upgrade twice and break the second service's sockets. Services
 * declare `{ websocket: true }` routes; authentication stays the auth hook's (`auth.webSocket`)
 * or the route's own.
 */
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';

/** Our subprotocols are named `tessera.<something>`; a `bearer.<token>` offered beside one is never echoed. */
const OUR_PROTOCOL = /^tessera\./;

/** Frames clients send are small control messages (subscribe, ping): anything larger is refused. */
const MAX_CLIENT_FRAME_BYTES = 4096;

export async function installWebSockets(app: FastifyInstance): Promise<void> {
  await app.register(websocket, {
    options: {
      maxPayload: MAX_CLIENT_FRAME_BYTES,
      handleProtocols: (protocols) => {
        for (const protocol of protocols) if (OUR_PROTOCOL.test(protocol)) return protocol;
        return false;
      },
    },
  });
  // A refused handshake (401, 403, 400) is answered as HTTP on the upgrade's socket, which nothing
  // closes afterwards: it would stay open and hold up the server's close. An upgraded socket never
  // gets here (its reply is hijacked).
  app.addHook('onResponse', (request, _reply, done) => {
    if (request.headers.upgrade !== undefined) request.raw.socket.destroy();
    done();
  });
}
