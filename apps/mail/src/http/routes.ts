/**
 * The mail REST API (spec/mail.md, issue 13) as one fastify plugin. Every route needs the
 * `mail` scope and acts on the token subject's own mailbox only; the mailbox is created on a
 * user's first authenticated call.
 */
import type { FastifyPluginCallback } from 'fastify';
import type { MailService } from '../service.ts';
import { folderRoutes } from './folder-routes.ts';
import { messageRoutes } from './message-routes.ts';
import { auth, tags, userOf } from './route-common.ts';
import { eventRoutes } from './event-routes.ts';
import { addFastMessage } from './fast-message.ts';
import { pageSchema, searchQuerySchema } from './schemas.ts';
import { summaryOf } from '../core/summary.ts';
import { summaryView } from './views.ts';

export interface MailRoutesOptions {
  readonly service: MailService;
  readonly sendLimitPerMinute: number;
  /** Largest POST /v1/messages body (base64 attachments included). */
  readonly sendBodyLimit: number;
  /** How often an open WebSocket reads the event backlog unprompted (default 1 s). */
  readonly eventCatchUpMs?: number;
}

// Users whose mailbox this process has made sure of; cleared when large (it is only a cache).
const KNOWN_USERS_MAX = 100_000;

export const mailRoutes: FastifyPluginCallback<MailRoutesOptions> = (app, options, done) => {
  const { service } = options;
  const known = new Set<string>();

  app.addHook('preHandler', async (request) => {
    const user = userOf(request);
    if (known.has(user)) return;
    await service.ensureMailbox(user);
    if (known.size >= KNOWN_USERS_MAX) known.clear();
    known.add(user);
  });

  addFastMessage(app, service);
  void app.register(folderRoutes, { service });
  void app.register(messageRoutes, options);
  void app.register(eventRoutes, {
    service,
    ...(options.eventCatchUpMs === undefined ? {} : { catchUpMs: options.eventCatchUpMs }),
  });

  app.get<{ Querystring: { q: string; limit: number; cursor?: string } }>(
    '/v1/search',
    {
      schema: {
        tags,
        summary: "Search the caller's mail, newest first",
        querystring: searchQuerySchema,
        response: { 200: pageSchema },
      },
      config: { auth },
    },
    async (request) => {
      const { q, limit, cursor } = request.query;
      const found = await service.search(userOf(request), q, {
        limit,
        ...(cursor === undefined ? {} : { cursor }),
      });
      return {
        data: found.messages.map((m) => summaryView(summaryOf(m))),
        ...(found.next === undefined ? {} : { next_cursor: found.next }),
      };
    },
  );

  done();
};
