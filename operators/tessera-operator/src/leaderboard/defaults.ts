/**
 * The spec with every default filled in. The API server applies the schema's defaults on write;
 * this fills them for an object stored before a default existed, so reconcile reads one shape.
 */
import type { LeaderboardSpec } from './types.ts';

export interface ResolvedLeaderboardSpec {
  readonly period: NonNullable<LeaderboardSpec['period']>;
  readonly timezone: string;
  readonly tieBreak: NonNullable<LeaderboardSpec['tieBreak']>;
  readonly retention: number;
  readonly image: string;
  readonly api: {
    readonly replicas: number;
    readonly resources: NonNullable<NonNullable<LeaderboardSpec['api']>['resources']>;
    readonly devSignIn: boolean;
  };
  readonly auth: LeaderboardSpec['auth'];
  readonly connections: NonNullable<LeaderboardSpec['connections']>;
}

/** What a pod asks for when the spec says nothing: enough for the embedded api at a few hundred requests/s. */
export const DEFAULT_API_RESOURCES = {
  requests: { cpu: '100m', memory: '128Mi' },
  limits: { memory: '512Mi' },
} as const;

export function withDefaults(spec: LeaderboardSpec, defaultImage: string): ResolvedLeaderboardSpec {
  return {
    period: spec.period ?? 'monthly',
    timezone: spec.timezone ?? 'UTC',
    tieBreak: spec.tieBreak ?? 'shared',
    retention: spec.retention ?? 12,
    image: spec.image ?? defaultImage,
    api: {
      replicas: spec.api?.replicas ?? 1,
      resources: spec.api?.resources ?? {
        requests: { ...DEFAULT_API_RESOURCES.requests },
        limits: { ...DEFAULT_API_RESOURCES.limits },
      },
      devSignIn: spec.api?.devSignIn ?? false,
    },
    auth: spec.auth,
    connections: spec.connections ?? {},
  };
}
