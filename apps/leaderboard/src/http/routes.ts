import type { FastifyPluginAsync } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { problemResponse, traceOf, type RoutesOptions } from '@tessera/kit';
import type { LeaderboardConfig } from '../config.ts';
import type { LeaderboardService } from '../service.ts';
import { addFastAnswers } from './fast-answers.ts';
import { entry, userInfo } from './replies.ts';
import {
  profileBodySchema,
  profileReplySchema,
  scoreBodySchema,
  standingQuerySchema,
  standingReplySchema,
  topQuerySchema,
  topReplySchema,
  userParamsSchema,
} from './schemas.ts';

export type LeaderboardRoutesOptions = RoutesOptions<
  LeaderboardConfig,
  { readonly service: LeaderboardService }
>;

interface ScoreBody {
  user_id: string;
  points: number;
  match_id?: string;
}
interface UserParams {
  user_id: string;
}
interface TopQuery {
  limit: number;
  offset: number;
  period?: string;
}
interface StandingQuery {
  period?: string;
  around?: number;
}
interface ProfileBody {
  user_name: string;
  display_name: string;
}

const MINUTE = 60_000;
const tags = ['leaderboard'];

/** The leaderboard's HTTP API (spec/leaderboard.md). */
const routes: FastifyPluginAsync<LeaderboardRoutesOptions> = (app, { config, instance }) => {
  const { service } = instance;
  const write = { max: config.LEADERBOARD_WRITE_LIMIT_PER_MINUTE, timeWindow: MINUTE };
  const read = { max: config.LEADERBOARD_READ_LIMIT_PER_MINUTE, timeWindow: MINUTE };

  app.post<{ Body: ScoreBody }>(
    '/v1/scores',
    {
      schema: {
        tags,
        summary: 'Add the points of a won match to a player (game servers only)',
        body: scoreBodySchema(config.LEADERBOARD_MAX_POINTS),
        response: {
          200: standingReplySchema,
          409: problemResponse,
          503: problemResponse,
          507: problemResponse,
        },
      },
      config: { auth: { scope: 'scores:write' }, rateLimit: write },
    },
    async (request, reply) => {
      const { user_id, points, match_id } = request.body;
      const recorded = await service.recordWin(
        { userId: user_id, points, matchId: match_id },
        traceOf(request),
      );
      if (recorded.replayed) void reply.header('Idempotent-Replayed', 'true');
      return { user_info: userInfo(recorded.standing) };
    },
  );

  app.get<{ Querystring: TopQuery }>(
    '/v1/scores',
    {
      schema: {
        tags,
        summary: 'The top players of a period, highest score first',
        querystring: topQuerySchema(config.LEADERBOARD_PERIOD),
        response: { 200: topReplySchema, 503: problemResponse },
      },
      config: { auth: { scope: 'scores:read' }, rateLimit: read },
    },
    async (request) => {
      const { limit, offset, period } = request.query;
      const top = await service.top(period, offset, limit);
      return { data: top.entries.map(entry), total: top.entries.length, period: top.period };
    },
  );

  app.get<{ Params: UserParams; Querystring: StandingQuery }>(
    '/v1/scores/:user_id',
    {
      schema: {
        tags,
        summary: "One player's score and rank, optionally with the players around",
        params: userParamsSchema,
        querystring: standingQuerySchema(config.LEADERBOARD_PERIOD),
        response: { 200: standingReplySchema, 404: problemResponse, 503: problemResponse },
      },
      config: { auth: { scope: 'scores:read' }, rateLimit: read },
    },
    async (request) => {
      const { period, around } = request.query;
      const found = await service.standing(request.params.user_id, period, around);
      return found.window === undefined
        ? { user_info: userInfo(found.standing) }
        : { user_info: userInfo(found.standing), data: found.window.map(entry) };
    },
  );

  addFastAnswers(app, service, config.LEADERBOARD_MAX_POINTS);

  app.put<{ Params: UserParams; Body: ProfileBody }>(
    '/v1/users/:user_id/profile',
    {
      schema: {
        tags,
        summary: "Set a player's profile (user name shown in the top list, display name)",
        params: userParamsSchema,
        body: profileBodySchema,
        response: { 200: profileReplySchema, 503: problemResponse },
      },
      config: { auth: { scope: 'profiles:write' }, rateLimit: write },
    },
    async (request) => {
      const { user_name, display_name } = request.body;
      await service.putProfile(request.params.user_id, { userName: user_name, displayName: display_name });
      return { user_id: request.params.user_id, user_name, display_name };
    },
  );

  app.get<{ Params: UserParams }>(
    '/v1/users/:user_id/profile',
    {
      schema: {
        tags,
        summary: "A player's profile",
        params: userParamsSchema,
        response: { 200: profileReplySchema, 404: problemResponse, 503: problemResponse },
      },
      config: { auth: { scope: 'scores:read' }, rateLimit: read },
    },
    async (request) => {
      const profile = await service.profile(request.params.user_id);
      return {
        user_id: request.params.user_id,
        user_name: profile.userName,
        display_name: profile.displayName,
      };
    },
  );
  return Promise.resolve();
};

/** The routes as one named, encapsulated plugin: they share nothing with other services' routes. */
export const leaderboardRoutes = fastifyPlugin(routes, {
  name: 'leaderboard',
  encapsulate: true,
  fastify: '5.x',
});
