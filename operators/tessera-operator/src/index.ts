// The operator's public surface (what k8s-tests and the CRD generator use), listed name by name.
export { toCustomResourceDefinition, toKubeconformSchema } from './crd/build.ts';
export { GROUP, VERSION } from './crd/define.ts';
export { crdFiles } from './crd/files.ts';
export { KINDS } from './crd/kinds.ts';
export { startOperator, type OperatorOptions, type RunningOperator } from './operator.ts';
export { MovableClock, systemClock, type Clock } from './runtime/clock.ts';
export { createLogger } from './runtime/logger.ts';
export { parsePlayers } from './leaderboard/api.ts';
export { cleanup } from './cleanup.ts';
