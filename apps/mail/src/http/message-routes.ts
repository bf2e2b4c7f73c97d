/** Message routes: send, read, download, mark, move, delete, and whole threads. */
import type { FastifyPluginCallback } from 'fastify';
import { problemResponse } from '@tessera/kit';
import type { MailService, SendInput } from '../service.ts';
import { auth, tags, userOf } from './route-common.ts';
import {
  attachmentParamsSchema,
  deleteReplySchema,
  messageParamsSchema,
  messagePatchSchema,
  messageSchema,
  sendBodySchema,
  threadParamsSchema,
  threadSchema,
} from './schemas.ts';
import { messageView } from './views.ts';

export interface MessageRoutesOptions {
  readonly service: MailService;
  readonly sendLimitPerMinute: number;
  readonly sendBodyLimit: number;
}

interface MessageParams {
  message_id: string;
}

const MINUTE = 60_000;

export const messageRoutes: FastifyPluginCallback<MessageRoutesOptions> = (app, options, done) => {
  const { service } = options;

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

  done();
};
