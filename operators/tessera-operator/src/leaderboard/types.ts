/**
 * The `Leaderboard` resource: its schema is the one source of truth. The CRD
 * (crds/leaderboards.tessera.dev.yaml, `make crds`) is generated from it, and the operator's types
 * below are inferred from it, so neither can drift from the other.
 */
import { Type, type Static } from '@sinclair/typebox';
import { defineKind, type CustomResource } from '../crd/define.ts';
import {
  Conditions,
  ResourceRequirements,
  SecretKeyRef,
  StringEnum,
  withRules,
} from '../crd/schema-types.ts';

export const PERIODS = ['monthly', 'weekly', 'daily'] as const;
export const TIE_BREAKS = ['shared', 'earliest'] as const;

/** Period ids as the service names them: `YYYY-MM`, `YYYY-Www` (ISO week), `YYYY-MM-DD`. */
const PERIOD_ID = '^[0-9]{4}-(0[1-9]|1[0-2]|W(0[1-9]|[1-4][0-9]|5[0-3]))(-(0[1-9]|[12][0-9]|3[01]))?$';

/** An IANA zone name (`UTC`, `Europe/Paris`, `America/Argentina/Buenos_Aires`, `Etc/GMT+5`). */
const TIME_ZONE = '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*$';

const immutable = (what: string) => ({ rule: 'self == oldSelf', message: `${what} cannot change once set` });

// Fields with a default are optional in the schema (the API server fills them in; defaults.ts
// fills them for objects stored before a default existed), so `spec: {}` is a whole board.
const LeaderboardSpec = Type.Object({
  period: Type.Optional(
    withRules(
      StringEnum(PERIODS, {
        default: 'monthly',
        description: 'how long one board runs before it is archived',
      }),
      [immutable('period')],
    ),
  ),
  timezone: Type.Optional(
    withRules(
      Type.String({
        default: 'UTC',
        maxLength: 64,
        pattern: TIME_ZONE,
        description: 'IANA time zone in which periods start and end',
      }),
      [immutable('timezone')],
    ),
  ),
  tieBreak: Type.Optional(
    StringEnum(TIE_BREAKS, {
      default: 'shared',
      description: 'shared: equal scores share a rank; earliest: who reached the score first ranks higher',
    }),
  ),
  retention: Type.Optional(
    Type.Integer({
      default: 12,
      minimum: 1,
      maximum: 1000,
      description: 'archived periods kept; older archives are deleted',
    }),
  ),
  image: Type.Optional(
    Type.String({ minLength: 1, description: "the Tessera image (default: the operator's TESSERA_IMAGE)" }),
  ),
  api: Type.Optional(
    Type.Object(
      {
        replicas: Type.Optional(Type.Integer({ default: 1, minimum: 0, maximum: 100 })),
        resources: Type.Optional(ResourceRequirements()),
        devSignIn: Type.Optional(
          Type.Boolean({
            default: false,
            description:
              'offer the development sign-in page (/signin/, mints any token from the signing secret): a development cluster only',
          }),
        ),
      },
      { default: {}, description: 'the api role (tessera run leaderboard api)' },
    ),
  ),
  auth: Type.Optional(
    Type.Object(
      { jwtSecret: SecretKeyRef({ description: 'the HS256 signing secret (AUTH_JWT_SECRET)' }) },
      { description: 'how the api checks bearer tokens' },
    ),
  ),
  connections: Type.Optional(
    Type.Object(
      {
        nats: Type.Optional(SecretKeyRef({ description: 'NATS_URL: the win log on JetStream' })),
        redis: Type.Optional(SecretKeyRef({ description: 'REDIS_URL: the live rankings' })),
        cassandra: Type.Optional(SecretKeyRef({ description: 'CASSANDRA_URL: profiles and archives' })),
      },
      {
        default: {},
        description: "Secrets holding the backing services' URLs; none given means embedded stores",
      },
    ),
  ),
});

const LeaderboardStatus = Type.Object({
  currentPeriod: Type.Optional(Type.String({ pattern: PERIOD_ID })),
  lastArchivedPeriod: Type.Optional(Type.String({ pattern: PERIOD_ID })),
  archivedPeriods: Type.Optional(
    Type.Array(Type.String({ pattern: PERIOD_ID }), {
      description: 'archived periods still kept, oldest first',
      'x-kubernetes-list-type': 'set',
    }),
  ),
  players: Type.Optional(Type.Integer({ minimum: 0 })),
  readyReplicas: Type.Optional(Type.Integer({ minimum: 0 })),
  observedGeneration: Type.Optional(Type.Integer({ minimum: 0 })),
  conditions: Type.Optional(Conditions()),
});

export const leaderboardKind = defineKind({
  kind: 'Leaderboard',
  plural: 'leaderboards',
  singular: 'leaderboard',
  shortNames: ['lb'],
  categories: ['tessera'],
  description: 'A game leaderboard: the api role, its period rollover and the archives',
  spec: LeaderboardSpec,
  status: LeaderboardStatus,
  rules: [
    {
      // Embedded stores live inside one process: a second replica would rank another set of wins.
      rule: '!has(self.spec.api) || !has(self.spec.api.replicas) || self.spec.api.replicas <= 1 || (has(self.spec.connections) && has(self.spec.connections.nats) && has(self.spec.connections.redis))',
      message:
        'more than one api replica needs shared stores: set spec.connections.nats and spec.connections.redis',
      fieldPath: '.spec.api.replicas',
    },
  ],
  printerColumns: [
    { name: 'Period', type: 'string', jsonPath: '.status.currentPeriod' },
    { name: 'Players', type: 'integer', jsonPath: '.status.players' },
    { name: 'Ready', type: 'integer', jsonPath: '.status.readyReplicas' },
    { name: 'Archived', type: 'string', jsonPath: '.status.lastArchivedPeriod', priority: 1 },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
});

export type LeaderboardSpec = Static<typeof LeaderboardSpec>;
export type LeaderboardStatus = Static<typeof LeaderboardStatus>;
export type Leaderboard = CustomResource<typeof leaderboardKind>;
export type Period = (typeof PERIODS)[number];
