/**
 * The read every mail client makes most, one message (`GET /v1/messages/{id}`), answered before
 * fastify when it is plain (see the kit's fast-routes.ts): an email id and nothing else in the
 * request target, from a token already verified with the `mail` scope, a message the store reads
 * synchronously and has. Its body is the route's (messageView, written as the response schema
 * writes it: views.ts). Anything else — a query, another id, a message the caller does not have,
 * a backend without synchronous reads — takes the full route, which answers it.
 */
import type { FastifyInstance } from 'fastify';
import type { MailService } from '../service.ts';
import { messageView } from './views.ts';

const PREFIX = '/v1/messages/';
/** What could be an email id (service.messageNow checks it is one): no '/', no query. */
const PLAIN = /^[0-9a-f-]{36}$/;

export function addFastMessage(app: FastifyInstance, service: MailService): void {
  app.addFastAnswer({
    route: '/v1/messages/:message_id',
    scope: 'mail',
    answer(url, principal) {
      if (!url.startsWith(PREFIX)) return undefined;
      const id = url.slice(PREFIX.length);
      if (!PLAIN.test(id)) return undefined;
      const message = service.messageNow(principal.sub, id);
      return message === undefined ? undefined : JSON.stringify(messageView(message));
    },
  });
}
