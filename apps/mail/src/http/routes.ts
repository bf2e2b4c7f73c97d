/**
 * The mail REST API (spec/mail.md, issue 13) as one fastify plugin. Every route needs the
 * `mail` scope and acts on the token subject's own mailbox only; the mailbox is created on a
 * user's first authenticated call.
 */
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import { kitErrors, problemResponse } from '@tessera/kit';
import type { MailService, SendInput } from '../service.ts';
import {
  attachmentParamsSchema,
  deleteReplySchema,
  folderBodySchema,
  folderListSchema,
  folderParamsSchema,
  folderSchema,
  listQuerySchema,
  messageParamsSchema,
  messagePatchSchema,
  messageSchema,
  pageSchema,
  pollQuerySchema,
  pollReplySchema,
  searchQuerySchema,
  sendBodySchema,
  threadParamsSchema,
  threadSchema,
} from './schemas.ts';
import { messageView, pushView, summaryView } from './views.ts';

export interface MailRoutesOptions {
  readonly service: MailService;
  readonly sendLimitPerMinute: number;
  /** Largest POST /v1/messages body (base64 attachments included). */
  readonly sendBodyLimit: number;
}

const tags = ['mail'];
const auth = { scope: 'mail' };
const MINUTE = 60_000;
// Users whose mailbox this process has made sure of; cleared when large (it is only a cache).
const KNOWN_USERS_MAX = 100_000;

interface FolderParams {
  folder_id: string;
}
interface MessageParams {
  message_id: string;
}
interface ListQuery {
  limit: number;
  cursor?: string;
  is_read?: boolean;
}

function userOf(request: FastifyRequest): string {
  const sub = request.principal?.sub;
  if (sub === undefined) throw kitErrors.KIT_UNAUTHORIZED('missing bearer token');
  return sub;
}

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

  app.get(
    '/v1/folders',
    {
      schema: { tags, summary: "The caller's folders", response: { 200: folderListSchema } },
      config: { auth },
    },
    async (request) => service.folders(userOf(request)),
  );

  app.post<{ Body: { name: string } }>(
    '/v1/folders',
    {
      schema: {
        tags,
        summary: 'Create a custom folder',
        body: folderBodySchema,
        response: { 201: folderSchema, 409: problemResponse },
      },
      config: { auth },
    },
    async (request, reply) =>
      reply.code(201).send(await service.createFolder(userOf(request), request.body.name)),
  );

  app.patch<{ Params: FolderParams; Body: { name: string } }>(
    '/v1/folders/:folder_id',
    {
      schema: {
        tags,
        summary: 'Rename a custom folder',
        params: folderParamsSchema,
        body: folderBodySchema,
        response: { 200: folderSchema, 404: problemResponse, 409: problemResponse },
      },
      config: { auth },
    },
    async (request) => service.renameFolder(userOf(request), request.params.folder_id, request.body.name),
  );

  app.delete<{ Params: FolderParams }>(
    '/v1/folders/:folder_id',
    {
      schema: {
        tags,
        summary: 'Delete a custom folder (its messages go to Trash)',
        params: folderParamsSchema,
        response: { 204: { type: 'null' }, 404: problemResponse, 409: problemResponse },
      },
      config: { auth },
    },
    async (request, reply) => {
      await service.deleteFolder(userOf(request), request.params.folder_id);
      return reply.code(204).send();
    },
  );

  app.get<{ Params: FolderParams; Querystring: ListQuery }>(
    '/v1/folders/:folder_id/messages',
    {
      schema: {
        tags,
        summary: "A folder's messages, newest first",
        params: folderParamsSchema,
        querystring: listQuerySchema,
        response: { 200: pageSchema, 404: problemResponse },
      },
      config: { auth },
    },
    async (request) => {
      const { limit, cursor, is_read } = request.query;
      const page = await service.listMessages(userOf(request), request.params.folder_id, {
        limit,
        ...(cursor === undefined ? {} : { cursor }),
        ...(is_read === undefined ? {} : { isRead: is_read }),
      });
      return {
        data: page.messages.map(summaryView),
        ...(page.next === undefined ? {} : { next_cursor: page.next }),
      };
    },
  );

  app.post<{ Body: SendInput }>(
    '/v1/messages',
    {
      bodyLimit: options.sendBodyLimit,
      schema: { tags, summary: 'Send a message', body: sendBodySchema, response: { 201: messageSchema } },
      config: { auth, rateLimit: { max: options.sendLimitPerMinute, timeWindow: MINUTE } },
    },
    async (request, reply) =>
      reply.code(201).send(messageView(await service.send(userOf(request), request.body))),
  );

  app.get<{ Params: MessageParams }>(
    '/v1/messages/:message_id',
    {
      schema: {
        tags,
        summary: 'One message',
        params: messageParamsSchema,
        response: { 200: messageSchema, 404: problemResponse },
      },
      config: { auth },
    },
    async (request) => messageView(await service.message(userOf(request), request.params.message_id)),
  );

  app.get<{ Params: MessageParams & { filename: string } }>(
    '/v1/messages/:message_id/attachments/:filename',
    {
      schema: {
        tags,
        summary: 'Download an attachment (streamed)',
        params: attachmentParamsSchema,
        response: { 404: problemResponse },
      },
      config: { auth },
    },
    async (request, reply) => {
      const { message_id, filename } = request.params;
      const attachment = await service.attachment(userOf(request), message_id, filename);
      return reply
        .type(attachment.contentType)
        .header('content-length', attachment.size)
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`)
        .send(attachment.stream);
    },
  );

  app.patch<{ Params: MessageParams; Body: { is_read?: boolean; folder_id?: string } }>(
    '/v1/messages/:message_id',
    {
      schema: {
        tags,
        summary: 'Mark read or unread, or move to a folder',
        params: messageParamsSchema,
        body: messagePatchSchema,
        response: { 200: messageSchema, 404: problemResponse, 409: problemResponse },
      },
      config: { auth },
    },
    async (request) =>
      messageView(await service.updateMessage(userOf(request), request.params.message_id, request.body)),
  );

  app.delete<{ Params: MessageParams }>(
    '/v1/messages/:message_id',
    {
      schema: {
        tags,
        summary: 'Move to Trash; from Trash, delete for good',
        params: messageParamsSchema,
        response: { 200: deleteReplySchema, 404: problemResponse },
      },
      config: { auth },
    },
    async (request) => {
      const { message_id } = request.params;
      const result = await service.deleteMessage(userOf(request), message_id);
      return { email_id: message_id, deleted: result.deleted };
    },
  );

  app.get<{ Params: { thread_id: string } }>(
    '/v1/threads/:thread_id',
    {
      schema: {
        tags,
        summary: 'A conversation, oldest first',
        params: threadParamsSchema,
        response: { 200: threadSchema, 404: problemResponse },
      },
      config: { auth },
    },
    async (request) => ({
      data: (await service.thread(userOf(request), request.params.thread_id)).map(messageView),
    }),
  );

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
        data: found.messages.map(summaryView),
        ...(found.next === undefined ? {} : { next_cursor: found.next }),
      };
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
