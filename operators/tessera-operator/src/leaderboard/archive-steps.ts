/** The reconcile's steps at the period boundary: archive Jobs started, followed and expired. */
import type { V1Job } from '@kubernetes/client-node';
import { archiveJob, names, PERIOD_LABEL } from './children.ts';
import { conditions } from './conditions.ts';
import { comparePeriodIds, finishedPeriods, periodEnd, periodId } from './period.ts';
import { event, requeue, set, type Step } from './reconcile-state.ts';

/** How often a running archive Job is looked at even without a watch event. */
const ARCHIVE_POLL_MS = 30_000;

function jobFinished(job: V1Job): { ok: boolean; why: string } | undefined {
  for (const c of job.status?.conditions ?? []) {
    if (c.status !== 'True') continue;
    if (c.type === 'Complete') return { ok: true, why: '' };
    if (c.type === 'Failed') return { ok: false, why: c.message ?? c.reason ?? 'failed' };
  }
  return undefined;
}

const periodOfJob = (job: V1Job) => job.metadata?.labels?.[PERIOD_LABEL] ?? '';

/**
 * The period boundary: when the clock has left the recorded period, that period is finished (and
 * any after it, when nobody looked across several boundaries), and an archive Job is created for
 * each (creating it again finds it there). Then the current period is recorded, and the next pass
 * is asked for at its end.
 */
export const rollOver: Step = async (ports, state) => {
  const now = ports.clock.now();
  const { period, timezone } = state.spec;
  const current = periodId(period, timezone, now);
  const recorded = state.status.currentPeriod;
  const finished =
    recorded !== undefined && comparePeriodIds(recorded, current) < 0
      ? // No more than the retention: older archives would be dropped at once.
        finishedPeriods(period, timezone, recorded, now, state.spec.retention)
      : [];
  for (const done of finished) {
    const created = await ports.jobs.create(archiveJob(state.board, state.spec, done));
    if (created) {
      await event(
        ports,
        state,
        'Normal',
        'ArchiveStarted',
        `${done} ended; archiving it (Job ${names.archive(state.board.metadata.name, done)})`,
      );
    }
    set(ports, state, conditions.archiving(done));
  }
  state.status.currentPeriod = current;
  requeue(state, periodEnd(period, timezone, now) - now);
  return undefined;
};

/** Follows the archive Jobs: a finished one is recorded once (status and an Event). */
export const followArchives: Step = async (ports, state) => {
  const { namespace, name } = state.board.metadata;
  const archived = new Set(state.status.archivedPeriods ?? []);
  const jobs = [...ports.jobs.list(namespace, name)].sort((a, b) =>
    comparePeriodIds(periodOfJob(a), periodOfJob(b)),
  );
  for (const job of jobs) {
    const period = periodOfJob(job);
    const finished = jobFinished(job);
    if (finished === undefined) {
      requeue(state, ARCHIVE_POLL_MS);
      continue;
    }
    if (archived.has(period)) continue;
    if (finished.ok) {
      archived.add(period);
      const last = state.status.lastArchivedPeriod;
      if (last === undefined || comparePeriodIds(last, period) < 0) state.status.lastArchivedPeriod = period;
      set(ports, state, conditions.archived(period));
      await event(ports, state, 'Normal', 'Archived', `${period} is archived`);
    } else if (state.status.conditions?.find((c) => c.type === 'Archived')?.reason !== 'ArchiveFailed') {
      const value = conditions.archiveFailed(period, finished.why);
      set(ports, state, value);
      await event(ports, state, 'Warning', value.reason, value.message);
    }
  }
  state.status.archivedPeriods = [...archived].sort(comparePeriodIds);
  return undefined;
};

/**
 * Retention: the newest `retention` archives are kept. The archive command drops older archived
 * data itself (`--keep`); here the operator forgets them: their Jobs go, and the status list.
 */
export const applyRetention: Step = async (ports, state) => {
  const kept = state.status.archivedPeriods ?? [];
  const excess = kept.length - state.spec.retention;
  if (excess <= 0) return undefined;
  const { namespace, name } = state.board.metadata;
  for (const period of kept.slice(0, excess)) {
    await ports.applier.delete({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: names.archive(name, period), namespace },
    });
    await event(
      ports,
      state,
      'Normal',
      'ArchiveExpired',
      `${period} is past the retention of ${state.spec.retention} periods`,
    );
  }
  state.status.archivedPeriods = kept.slice(excess);
  return undefined;
};
