// The test harness every package's tests use, listed name by name.
export { backend, type Backend, type BackendName } from './backends.ts';
export { selfSignedCertificate } from './certificates.ts';
export { documentedErrors, tableErrors, type DocumentedError } from './error-docs.ts';
export { freePort, tempDir, testNamespace, type Teardown } from './isolation.ts';
export {
  launchTessera,
  waitForExit,
  type LaunchedProcess,
  type LaunchOptions,
  type ProcessExit,
} from './process.ts';
export {
  BASELINE_SERVER,
  TESSERA_MAIN,
  cpuSeconds,
  ensureWrk,
  figuresRow,
  hasTaskset,
  loadAverage,
  median,
  medianOf,
  medianRatio,
  runWrk,
  startPinned,
  type BenchServer,
  type Figures,
  type WrkRun,
} from './http-bench.ts';
export { compareReaders, mutatedTexts } from './mutated-texts.ts';
export type { ReadersCompared } from './mutated-texts.ts';
export { pollUntil, type PollOptions } from './poll.ts';
export { seededRandom } from './seeded-random.ts';
export { tool, toolCache, toolsPath, type ToolName } from './tools.ts';
export { walRestarts } from './wal-header.ts';
export {
  cluster,
  importImage,
  kubectl,
  parseAssignments,
  type Cluster,
  type ImageOptions,
} from './cluster.ts';
