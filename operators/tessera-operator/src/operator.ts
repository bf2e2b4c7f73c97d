/**
 * One operator process: the health/metrics server at once, then leader election; only the leader
 * runs the controllers (a standby keeps its /healthz answering and waits for the Lease). Losing
 * the Lease stops the controllers and reports it, so the process can exit and start over.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { startLeaderboardController, type RunningController } from './leaderboard/controller.ts';
import type { LeaderboardPorts } from './leaderboard/ports.ts';
import { systemClock, type Clock } from './runtime/clock.ts';
import { eventRecorder } from './runtime/events.ts';
import { startHealthServer, type HealthServer } from './runtime/http.ts';
import { startLeaderElection, type LeaderElection } from './runtime/leader-election.ts';
import { createMetrics, type OperatorMetrics } from './runtime/metrics.ts';

export interface OperatorOptions {
  readonly config: KubeConfig;
  readonly logger: Logger;
  /** Watch one namespace (WATCH_NAMESPACE), or all when undefined. */
  readonly watchNamespace?: string;
  /** Where the leader Lease lives (the operator's own namespace). */
  readonly leaseNamespace: string;
  readonly leaseName?: string;
  readonly identity: string;
  readonly image: string;
  readonly port?: number;
  readonly host?: string;
  readonly clock?: Clock;
  readonly resyncMs?: number;
  readonly leaseDurationSeconds?: number;
  readonly renewMs?: number;
  readonly retryMs?: number;
  readonly players?: LeaderboardPorts['players'];
  readonly stores?: LeaderboardPorts['stores'];
  /** Called when this instance must not go on (leadership lost): main exits, a fresh start campaigns again. */
  readonly onFatal?: () => void;
  /** prom-client's process metrics (off in tests that run several operators in one process). */
  readonly defaultMetrics?: boolean;
}

export interface RunningOperator {
  readonly health: HealthServer;
  readonly metrics: OperatorMetrics;
  isLeader(): boolean;
  /** Resolves when this instance leads and its caches are filled. */
  readonly leading: Promise<void>;
  stop(): Promise<void>;
}

export async function startOperator(options: OperatorOptions): Promise<RunningOperator> {
  const { logger } = options;
  const metrics = createMetrics(options.defaultMetrics ?? true);
  let controller: RunningController | undefined;
  let synced = false;
  let markLeading: () => void = () => undefined;
  const leading = new Promise<void>((resolve) => (markLeading = resolve));
  const health = await startHealthServer({
    port: options.port ?? 8081,
    host: options.host,
    registry: metrics.registry,
    // A standby is ready (healthy, waiting); a leader once its caches are filled.
    ready: () => controller === undefined || synced,
  });
  const events = eventRecorder(options.config, 'tessera-operator', logger);
  let election: LeaderElection | undefined = undefined;
  election = startLeaderElection(options.config, {
    name: options.leaseName ?? 'tessera-operator',
    namespace: options.leaseNamespace,
    identity: options.identity,
    leaseDurationSeconds: options.leaseDurationSeconds,
    renewMs: options.renewMs,
    retryMs: options.retryMs,
    logger,
    onStartedLeading: async () => {
      metrics.leader.set(1);
      controller = startLeaderboardController({
        config: options.config,
        namespace: options.watchNamespace,
        clock: options.clock ?? systemClock,
        image: options.image,
        events,
        metrics,
        logger,
        resyncMs: options.resyncMs ?? 60_000,
        players: options.players,
        stores: options.stores,
      });
      // Not ready until every informer has listed (without the CRDs they retry, with warnings).
      await controller.synced;
      synced = true;
      logger.info({ namespace: options.watchNamespace ?? '(all)' }, 'controllers started');
      markLeading();
    },
    onStoppedLeading: () => {
      metrics.leader.set(0);
      const stopping = controller;
      controller = undefined;
      void stopping?.stop();
      logger.fatal('lost the leader lease');
      options.onFatal?.();
    },
  });
  return {
    health,
    metrics,
    isLeader: () => election?.isLeader() ?? false,
    leading,
    async stop() {
      await controller?.stop();
      controller = undefined;
      await election?.stop();
      metrics.leader.set(0);
      await health.close();
    },
  };
}
