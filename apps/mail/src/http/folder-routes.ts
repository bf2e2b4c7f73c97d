/** Folder routes: the caller's folders (a plain array, as the spec shows) and their messages. */
import type { FastifyPluginCallback } from 'fastify';
import { problemResponse } from '@tessera/kit';
import type { MailService } from '../service.ts';
import { auth, tags, userOf } from './route-common.ts';
import {
  folderBodySchema,
  folderListSchema,
  folderParamsSchema,
  folderSchema,
  listQuerySchema,
  pageSchema,
} from './schemas.ts';
import { summaryView } from './views.ts';

interface FolderParams {
  folder_id: string;
}
interface ListQuery {
  limit: number;
  cursor?: string;
  is_read?: boolean;
}

export const folderRoutes: FastifyPluginCallback<{ service: MailService }> = (app, { service }, done) => {
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
      const page = await service.listSummaries(userOf(request), request.params.folder_id, {
        limit,
        ...(cursor === undefined ? {} : { cursor }),
        ...(is_read === undefined ? {} : { isRead: is_read }),
      });
      return {
        data: page.summaries.map(summaryView),
        ...(page.next === undefined ? {} : { next_cursor: page.next }),
      };
    },
  );

  done();
};
