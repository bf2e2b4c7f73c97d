/**
 * Leader election through a coordination.k8s.io Lease, as client-go does it: the holder renews
 * the Lease every `renewMs`; another candidate takes it only once `leaseDurationSeconds` have
 * passed since the last renewal it saw change. Every write carries the resourceVersion read, so
 * two candidates racing for a free Lease cannot both win (the loser gets a 409).
 * A leader that cannot renew before the Lease would expire stops leading (`onStoppedLeading`) —
 * the process then exits, so a replica never acts on a Lease it may have lost.
 */
import {
  ApiException,
  CoordinationV1Api,
  V1MicroTime,
  type KubeConfig,
  type V1Lease,
} from '@kubernetes/client-node';
import type { Logger } from 'pino';

export interface LeaderElectionOptions {
  readonly name: string;
  readonly namespace: string;
  /** This replica's identity (the pod name). */
  readonly identity: string;
  readonly leaseDurationSeconds?: number;
  readonly renewMs?: number;
  /** How often a standby looks at the Lease. */
  readonly retryMs?: number;
  readonly onStartedLeading: () => void | Promise<void>;
  /** Leadership lost (the Lease could not be renewed in time). */
  readonly onStoppedLeading: () => void;
  readonly logger: Logger;
}

export interface LeaderElection {
  readonly isLeader: () => boolean;
  /**
   * Stops campaigning and, once the step in flight has ended, gives the Lease up if it holds it
   * (so a standby need not wait for it to expire).
   */
  stop(): Promise<void>;
}

export function startLeaderElection(config: KubeConfig, options: LeaderElectionOptions): LeaderElection {
  const api = config.makeApiClient(CoordinationV1Api);
  const { name, namespace, identity, logger } = options;
  const duration = options.leaseDurationSeconds ?? 15;
  const renewMs = options.renewMs ?? 5_000;
  const retryMs = options.retryMs ?? 2_000;
  let leader = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let lastRenewalSeen = ''; // the holder's renewTime as last read, and when we read it
  let lastRenewalSeenAt = 0;
  let lastRenewedAt = 0;
  let attempt: Promise<void> | undefined; // the loop's step in flight, which stop() lets finish

  const spec = (acquire: boolean, lease?: V1Lease) => ({
    holderIdentity: identity,
    leaseDurationSeconds: duration,
    // MicroTime: the API server refuses the client's millisecond Dates on these fields.
    acquireTime:
      acquire || lease?.spec?.acquireTime === undefined
        ? new V1MicroTime()
        : new V1MicroTime(lease.spec.acquireTime),
    renewTime: new V1MicroTime(),
    leaseTransitions: (lease?.spec?.leaseTransitions ?? 0) + (acquire && lease !== undefined ? 1 : 0),
  });

  /** One attempt to take or renew the Lease; true when this replica holds it afterwards. */
  async function tryAcquireOrRenew(): Promise<boolean> {
    let lease: V1Lease;
    try {
      lease = await api.readNamespacedLease({ name, namespace });
    } catch (error) {
      if (!(error instanceof ApiException && error.code === 404)) throw error;
      await api.createNamespacedLease({
        namespace,
        body: { metadata: { name, namespace }, spec: spec(true) },
      });
      return true;
    }
    const holder = lease.spec?.holderIdentity ?? '';
    const renewed = lease.spec?.renewTime === undefined ? '' : new Date(lease.spec.renewTime).toISOString();
    if (holder !== identity && holder !== '') {
      // Someone else's Lease: free only when its renewal has not moved for a whole duration,
      // measured on our own clock (clocks of two machines need not agree).
      if (renewed !== lastRenewalSeen) {
        lastRenewalSeen = renewed;
        lastRenewalSeenAt = Date.now();
        return false;
      }
      if (Date.now() - lastRenewalSeenAt < duration * 1000) return false;
    }
    await api.replaceNamespacedLease({
      name,
      namespace,
      body: { ...lease, spec: spec(holder !== identity, lease) },
    });
    return true;
  }

  function loop(): void {
    attempt = step();
  }

  async function step(): Promise<void> {
    if (stopped) return;
    let holds = false;
    try {
      holds = await tryAcquireOrRenew();
      if (holds) lastRenewedAt = Date.now();
    } catch (error) {
      // A 409 is a lost race (another candidate wrote first); anything else is logged and retried.
      if (!(error instanceof ApiException && error.code === 409))
        logger.warn({ err: error }, 'lease update failed');
    }
    if (stopped) return;
    if (holds && !leader) {
      leader = true;
      logger.info({ lease: `${namespace}/${name}`, identity }, 'became the leader');
      // Not awaited: renewing the Lease must not wait for the controllers to fill their caches.
      void options.onStartedLeading();
    } else if (!holds && leader && Date.now() - lastRenewedAt >= duration * 1000 - renewMs) {
      leader = false;
      logger.error({ lease: `${namespace}/${name}`, identity }, 'lost the lease');
      options.onStoppedLeading();
    }
    timer = setTimeout(loop, leader ? renewMs : retryMs);
  }

  /**
   * Gives the Lease up if the API server says we hold it — whatever `leader` says, since a step
   * stopped mid-way may have taken it. A 409 means a write of ours (or a candidate's) came between
   * the read and the release: read again, a few times.
   */
  async function release(): Promise<void> {
    for (let tries = 1; ; tries++) {
      const lease = await api.readNamespacedLease({ name, namespace });
      if (lease.spec?.holderIdentity !== identity) return;
      try {
        await api.replaceNamespacedLease({
          name,
          namespace,
          body: {
            ...lease,
            spec: {
              ...lease.spec,
              holderIdentity: '',
              acquireTime:
                lease.spec.acquireTime === undefined ? undefined : new V1MicroTime(lease.spec.acquireTime),
              renewTime:
                lease.spec.renewTime === undefined ? undefined : new V1MicroTime(lease.spec.renewTime),
            },
          },
        });
        return;
      } catch (error) {
        if (!(error instanceof ApiException && error.code === 409) || tries === 3) throw error;
      }
    }
  }

  loop();
  return {
    isLeader: () => leader,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      leader = false;
      // A renewal in flight would otherwise land after the release and hold the Lease again. A
      // step hung longer than the Lease lasts no longer matters: the Lease has expired by then.
      let waited: NodeJS.Timeout | undefined;
      await Promise.race([
        attempt,
        new Promise((resolve) => (waited = setTimeout(resolve, duration * 1000))),
      ]);
      clearTimeout(waited);
      // Read even when we never saw ourselves lead: a write may have reached the server unanswered.
      try {
        await release();
      } catch (error) {
        logger.warn({ err: error }, 'could not release the lease');
      }
    },
  };
}
