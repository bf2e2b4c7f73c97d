/** JSON schemas of the leaderboard API: validation at the edge and the OpenAPI document. */
import { PERIOD_PATTERNS, type PeriodKind } from '../core/period.ts';
import { TOP_LIST_SIZE } from '../core/standing.ts';
import {
  idPattern,
  MATCH_ID_CHARACTERS,
  MATCH_ID_MAX_LENGTH,
  USER_ID_CHARACTERS,
  USER_ID_MAX_LENGTH,
} from './id-rules.ts';

/**
 * Text shown to other people must not carry control characters (Unicode Cc, which includes
 * U+0080–U+009F) or bidirectional controls that reorder what follows (U+061C, U+200E–U+200F,
 * U+202A–U+202E, U+2066–U+2069): they hide or spoof what a name says.
 */
// Written as ranges, not \p{Cc}: the OpenAPI document's readers (fuzzers, generators) need it plain.
export const DISPLAYABLE_TEXT =
  '^[^\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]+$';

export const userIdSchema = {
  type: 'string',
  pattern: idPattern(USER_ID_CHARACTERS, USER_ID_MAX_LENGTH),
  description: `Player id: 1–${USER_ID_MAX_LENGTH} characters of A–Z, a–z, 0–9, _ and -`,
  examples: ['5f2b9c1e8d3a4b6c7e9f0a1b'],
} as const;

const periodNames = {
  monthly: { description: 'A month, YYYY-MM; default: the current month', example: '2026-11' },
  weekly: { description: 'An ISO 8601 week, YYYY-Www; default: the current week', example: '2026-W48' },
  daily: { description: 'A day, YYYY-MM-DD; default: today', example: '2026-11-23' },
} as const;

/** The `period` parameter for boards of `kind` (LEADERBOARD_PERIOD). */
export function periodSchema(kind: PeriodKind) {
  return {
    type: 'string',
    pattern: PERIOD_PATTERNS[kind],
    description: periodNames[kind].description,
    examples: [periodNames[kind].example],
  } as const;
}

const userInfoSchema = {
  type: 'object',
  required: ['user_id', 'score', 'rank'],
  additionalProperties: false,
  properties: {
    user_id: { type: 'string' },
    score: { type: 'integer' },
    rank: { type: 'integer', minimum: 1 },
  },
} as const;

const entrySchema = {
  type: 'object',
  required: ['user_id', 'user_name', 'rank', 'score'],
  additionalProperties: false,
  properties: {
    user_id: { type: 'string' },
    user_name: { type: 'string' },
    rank: { type: 'integer', minimum: 1 },
    score: { type: 'integer' },
  },
} as const;

export function scoreBodySchema(maxPoints: number) {
  return {
    type: 'object',
    required: ['user_id', 'points'],
    additionalProperties: false,
    properties: {
      user_id: userIdSchema,
      points: { type: 'integer', minimum: 1, maximum: maxPoints, description: 'Points gained by the win' },
      match_id: {
        type: 'string',
        pattern: idPattern(MATCH_ID_CHARACTERS, MATCH_ID_MAX_LENGTH),
        description: 'The match; a retry with the same match_id adds nothing',
      },
    },
  } as const;
}

export const standingReplySchema = {
  type: 'object',
  required: ['user_info'],
  additionalProperties: false,
  properties: {
    user_info: userInfoSchema,
    data: {
      type: 'array',
      items: entrySchema,
      description: 'With around=N: the players around, in rank order',
    },
  },
} as const;

export function topQuerySchema(kind: PeriodKind) {
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      limit: { type: 'integer', minimum: 1, maximum: 100, default: TOP_LIST_SIZE },
      offset: { type: 'integer', minimum: 0, maximum: 100_000_000, default: 0 },
      period: periodSchema(kind),
    },
  } as const;
}

export const topReplySchema = {
  type: 'object',
  required: ['data', 'total', 'period'],
  additionalProperties: false,
  properties: {
    data: { type: 'array', items: entrySchema },
    total: { type: 'integer', description: 'Number of entries returned' },
    period: { type: 'string' },
  },
} as const;

export function standingQuerySchema(kind: PeriodKind) {
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      period: periodSchema(kind),
      around: {
        type: 'integer',
        minimum: 1,
        maximum: 10,
        description: 'Also list up to N players above and below',
      },
    },
  } as const;
}

export const userParamsSchema = {
  type: 'object',
  required: ['user_id'],
  additionalProperties: false,
  properties: { user_id: userIdSchema },
} as const;

export const profileBodySchema = {
  type: 'object',
  required: ['user_name', 'display_name'],
  additionalProperties: false,
  properties: {
    user_name: {
      type: 'string',
      pattern: '^[A-Za-z0-9_.-]{1,32}$',
      description: '1–32 of A–Z, a–z, 0–9, _ . -',
    },
    display_name: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      pattern: DISPLAYABLE_TEXT,
      description: '1–64 characters, no control or bidirectional-override characters',
    },
  },
} as const;

export const profileReplySchema = {
  type: 'object',
  required: ['user_id', 'user_name', 'display_name'],
  additionalProperties: false,
  properties: {
    user_id: { type: 'string' },
    user_name: { type: 'string' },
    display_name: { type: 'string' },
  },
} as const;
