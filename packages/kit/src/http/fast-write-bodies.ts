/**
 * A body a fast write read and then declined reaches its full route as if fastify had read it:
 * a preParsing hook puts the bytes back as the payload stream the content-type parser reads.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { FastRoutes } from './fast-routes.ts';

export function replayDeclinedBodies(app: FastifyInstance, fast: FastRoutes): void {
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const body = fast.preReadBody(request.raw);
    if (body === undefined) return done(null, payload);
    // The parser compares this with Content-Length, as it would the bytes it counted itself.
    const replayed = Object.assign(Readable.from([body]), { receivedEncodedLength: body.length });
    done(null, replayed);
  });
}
