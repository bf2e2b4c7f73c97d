/**
 * A SQLite file's WAL checkpoints on /metrics: how the checkpointer's rounds go (sqlite-wal-
 * checkpointer.ts), one series per figure with the database as a label, so that a WAL that stops
 * being copied back (a long reader pins it; rounds or copy-backs fail) shows before the disk fills.
 * Every service of a process shares the app's registry: the gauges are made once per registry and
 * each registered database adds its label. The running totals (rounds, failures) are gauges set
 * from the checkpointer's stats at each scrape, not counters (which only count up from here);
 * `rate()` reads them as it would counters, as they restart only with the process. A database
 * stays registered for the registry's life: each is opened once per process, with the app.
 */
import { Gauge, type Registry } from 'prom-client';
import type { WalCheckpoints } from './sqlite-wal-checkpointer.ts';

type Figure = (stats: WalCheckpoints) => number;

const SERIES: ReadonlyArray<{ name: string; help: string; figure: Figure }> = [
  {
    name: 'sqlite_wal_checkpoint_rounds',
    help: 'WAL checkpoint rounds run since start',
    figure: (s) => s.rounds,
  },
  {
    name: 'sqlite_wal_frames',
    help: 'Frames in the WAL at the last checkpoint round',
    figure: (s) => s.frames,
  },
  {
    name: 'sqlite_wal_frames_copied',
    help: 'Frames the last checkpoint round copied back into the database file',
    figure: (s) => s.copied,
  },
  {
    name: 'sqlite_wal_pinned_rounds',
    help: 'Checkpoint rounds in a row that could not copy the whole WAL (a reader holds it)',
    figure: (s) => s.pinnedRounds,
  },
  {
    name: 'sqlite_wal_checkpoint_failures',
    help: 'Checkpoint rounds that failed since start (each retried by the next)',
    figure: (s) => s.failures,
  },
  {
    name: 'sqlite_wal_copy_back_failures',
    help: "The writer's WAL copy-backs that failed since start (the WAL then grows until one succeeds)",
    figure: (s) => s.copyBackFailures,
  },
];

/**
 * Per registry: the databases whose checkpoints it shows, by label. Keyed by the registry (each
 * app owns one), so that the services of one process add labels to one set of gauges.
 */
const sources = new WeakMap<Registry, Map<string, () => WalCheckpoints>>();

/** Shows `database`'s checkpoints (`stats`, read at each scrape) on `registry`. */
export function registerWalMetrics(registry: Registry, database: string, stats: () => WalCheckpoints): void {
  let databases = sources.get(registry);
  if (databases === undefined) {
    const known = new Map<string, () => WalCheckpoints>();
    databases = known;
    sources.set(registry, known);
    for (const { name, help, figure } of SERIES) {
      new Gauge({
        name,
        help,
        labelNames: ['database'],
        registers: [registry],
        collect() {
          for (const [label, read] of known) this.set({ database: label }, figure(read()));
        },
      });
    }
  }
  databases.set(database, stats);
}
