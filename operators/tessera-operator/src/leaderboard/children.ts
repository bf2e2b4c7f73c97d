/**
 * What a Leaderboard owns, as objects to apply: the api Deployment, its Service, a
 * PodDisruptionBudget and one archive Job per finished period. Pure: the same board gives the
 * same objects, so applying them again changes nothing.
 */
import type {
  V1Deployment,
  V1EnvVar,
  V1Job,
  V1OwnerReference,
  V1PodDisruptionBudget,
  V1PodSecurityContext,
  V1ResourceRequirements,
  V1SecurityContext,
  V1Service,
  V1Volume,
  V1VolumeMount,
} from '@kubernetes/client-node';
import type { ResolvedLeaderboardSpec } from './defaults.ts';
import { storeEnvironment } from './store-names.ts';
import type { Leaderboard } from './types.ts';

export const API_PORT = 8080;
/** How long a deleted api pod goes on serving before it is told to stop. */
export const PRE_STOP_SECONDS = 5;
export const LEADERBOARD_LABEL = 'tessera.dev/leaderboard';
export const PERIOD_LABEL = 'tessera.dev/period';
export const MANAGED_BY = 'tessera-operator';
/** Selects everything the operator made, cluster-wide (what its informers watch). */
export const MANAGED_SELECTOR = `app.kubernetes.io/managed-by=${MANAGED_BY}`;

export const names = {
  api: (board: string) => `${board}-api`,
  service: (board: string) => board,
  budget: (board: string) => `${board}-api`,
  /** Lower case: `2026-W05` becomes `…-archive-2026-w05` (object names allow no capitals). */
  archive: (board: string, period: string) => `${board}-archive-${period.toLowerCase()}`,
};

export function labels(board: string, component: string): Record<string, string> {
  return {
    'app.kubernetes.io/name': 'tessera',
    'app.kubernetes.io/component': component,
    'app.kubernetes.io/instance': board,
    'app.kubernetes.io/managed-by': MANAGED_BY,
    [LEADERBOARD_LABEL]: board,
  };
}

function selector(board: string): Record<string, string> {
  return { 'app.kubernetes.io/component': 'leaderboard-api', [LEADERBOARD_LABEL]: board };
}

/** Every child names the board as its controller: the garbage collector removes it with the board. */
export function ownerReference(board: Leaderboard): V1OwnerReference {
  return {
    apiVersion: board.apiVersion,
    kind: board.kind,
    name: board.metadata.name,
    uid: board.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

function meta(board: Leaderboard, name: string, component: string) {
  return {
    name,
    namespace: board.metadata.namespace,
    labels: labels(board.metadata.name, component),
    ownerReferences: [ownerReference(board)],
  };
}

/** Non-root, read-only root, nothing gained: what every Tessera container runs with. */
export const POD_SECURITY: V1PodSecurityContext = {
  runAsNonRoot: true,
  runAsUser: 10001,
  runAsGroup: 10001,
  fsGroup: 10001,
  seccompProfile: { type: 'RuntimeDefault' },
};

export const CONTAINER_SECURITY: V1SecurityContext = {
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  privileged: false,
  capabilities: { drop: ['ALL'] },
};

/** The writable places a read-only container still needs: /tmp and the embedded stores' DATA_DIR. */
const VOLUMES: V1Volume[] = [
  { name: 'tmp', emptyDir: {} },
  { name: 'data', emptyDir: {} },
];
const MOUNTS: V1VolumeMount[] = [
  { name: 'tmp', mountPath: '/tmp' },
  { name: 'data', mountPath: '/data' },
];

/** Quantities as the API takes them (strings): `2` and `"2"` mean the same. */
function resources(spec: ResolvedLeaderboardSpec): V1ResourceRequirements {
  const text = (map: Record<string, string | number> | undefined) =>
    map === undefined ? undefined : Object.fromEntries(Object.entries(map).map(([k, v]) => [k, String(v)]));
  const { requests, limits } = spec.api.resources;
  return { ...(requests && { requests: text(requests) }), ...(limits && { limits: text(limits) }) };
}

const fromSecret = (name: string, ref: { secretKeyRef: { name: string; key: string } }): V1EnvVar => ({
  name,
  valueFrom: { secretKeyRef: { name: ref.secretKeyRef.name, key: ref.secretKeyRef.key } },
});

/** The environment of every leaderboard process: the settings from the spec, URLs from Secrets. */
export function environment(spec: ResolvedLeaderboardSpec): V1EnvVar[] {
  const env: V1EnvVar[] = [
    { name: 'HOST', value: '0.0.0.0' },
    { name: 'PORT', value: String(API_PORT) },
    { name: 'DATA_DIR', value: '/data' },
    { name: 'LEADERBOARD_PERIOD', value: spec.period },
    { name: 'LEADERBOARD_TIMEZONE', value: spec.timezone },
    { name: 'LEADERBOARD_TIE_BREAK', value: spec.tieBreak },
  ];
  // The development sign-in page beside the leaderboard's own (a development cluster only).
  if (spec.api.devSignIn) env.push({ name: 'DEV_SIGNIN', value: 'true' });
  if (spec.auth !== undefined) env.push(fromSecret('AUTH_JWT_SECRET', spec.auth.jwtSecret));
  const { nats, redis, cassandra } = spec.connections;
  if (nats !== undefined) env.push(fromSecret('NATS_URL', nats));
  if (redis !== undefined) env.push(fromSecret('REDIS_URL', redis));
  if (cassandra !== undefined) env.push(fromSecret('CASSANDRA_URL', cassandra));
  return env;
}

/** A board's processes: the spec's settings, and the names of its data on the shared servers. */
function boardEnvironment(board: Leaderboard, spec: ResolvedLeaderboardSpec): V1EnvVar[] {
  return [...environment(spec), ...storeEnvironment(board.metadata.namespace ?? '', board.metadata.name)];
}

export function apiDeployment(board: Leaderboard, spec: ResolvedLeaderboardSpec): V1Deployment {
  const name = board.metadata.name;
  const probe = (path: string, periodSeconds: number, failureThreshold: number) => ({
    httpGet: { path, port: 'http' },
    periodSeconds,
    failureThreshold,
    timeoutSeconds: 2,
  });
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta(board, names.api(name), 'leaderboard-api'),
    spec: {
      replicas: spec.api.replicas,
      selector: { matchLabels: selector(name) },
      // One replica on embedded stores: never two processes on one board (Recreate).
      strategy:
        spec.api.replicas > 1
          ? { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } }
          : { type: 'Recreate' },
      template: {
        metadata: { labels: labels(name, 'leaderboard-api') },
        spec: {
          automountServiceAccountToken: false,
          securityContext: POD_SECURITY,
          volumes: VOLUMES,
          containers: [
            {
              name: 'api',
              image: spec.image,
              args: ['run', 'leaderboard', 'api'],
              ports: [{ name: 'http', containerPort: API_PORT, protocol: 'TCP' }],
              env: boardEnvironment(board, spec),
              resources: resources(spec),
              securityContext: CONTAINER_SECURITY,
              volumeMounts: MOUNTS,
              // Catch-up replays the win log before /readyz answers: the start-up probe allows it.
              startupProbe: probe('/healthz', 2, 60),
              livenessProbe: probe('/healthz', 10, 3),
              readinessProbe: probe('/readyz', 5, 2),
              // A deleted pod keeps serving while the endpoints, kube-proxy and the ingress
              // controller learn it is going (they watch, and lag): only then SIGTERM. The image
              // has no shell, so the kubelet's own sleep, not `sh -c sleep`.
              lifecycle: { preStop: { sleep: { seconds: PRE_STOP_SECONDS } } },
            },
          ],
        },
      },
    },
  };
}

export function apiService(board: Leaderboard): V1Service {
  const name = board.metadata.name;
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta(board, names.service(name), 'leaderboard-api'),
    spec: {
      type: 'ClusterIP',
      selector: selector(name),
      ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }],
    },
  };
}

/** A voluntary disruption (a node drain) takes at most one api pod at a time. */
export function apiDisruptionBudget(board: Leaderboard): V1PodDisruptionBudget {
  const name = board.metadata.name;
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: meta(board, names.budget(name), 'leaderboard-api'),
    spec: { maxUnavailable: 1, selector: { matchLabels: selector(name) } },
  };
}

/**
 * The archive of one finished period: a one-shot `tessera archive leaderboard --period <id>
 * --keep <retention>` (archives that period, drops archives past the retention, exits), not the
 * long-running `archiver` role: a Job must end, and the operator, not a timer in a pod, decides
 * when a period is over. The command is idempotent (an archived period is archived once), so the
 * Job's retries are safe.
 */
export function archiveJob(board: Leaderboard, spec: ResolvedLeaderboardSpec, period: string): V1Job {
  const name = board.metadata.name;
  const metadata = meta(board, names.archive(name, period), 'leaderboard-archive');
  metadata.labels[PERIOD_LABEL] = period;
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata,
    spec: {
      backoffLimit: 6,
      activeDeadlineSeconds: 3600,
      template: {
        metadata: { labels: { ...labels(name, 'leaderboard-archive'), [PERIOD_LABEL]: period } },
        spec: {
          restartPolicy: 'Never',
          automountServiceAccountToken: false,
          securityContext: POD_SECURITY,
          volumes: VOLUMES,
          containers: [
            {
              name: 'archive',
              image: spec.image,
              args: ['archive', 'leaderboard', '--period', period, '--keep', String(spec.retention)],
              env: boardEnvironment(board, spec),
              resources: resources(spec),
              securityContext: CONTAINER_SECURITY,
              volumeMounts: MOUNTS,
            },
          ],
        },
      },
    },
  };
}
