/** The operator's settings, from the environment (the chart sets them), every bad one reported at once. */
import { readConfig, setting, type ConfigOf } from '@tessera/kit';

export const operatorSettings = {
  TESSERA_IMAGE: setting.string({ description: 'the image the leaderboard pods run (tessera run …)' }),
  WATCH_NAMESPACE: setting.string({
    default: '',
    description: 'one namespace to watch; empty: every namespace',
  }),
  POD_NAMESPACE: setting.string({
    default: 'default',
    description: 'where the leader Lease lives (the downward API)',
  }),
  POD_NAME: setting.string({
    default: '',
    description: 'this replica in the Lease (default: the host name)',
  }),
  OPERATOR_PORT: setting.int({
    default: 8081,
    min: 1,
    max: 65535,
    description: '/healthz, /readyz, /metrics',
  }),
  OPERATOR_RESYNC_SECONDS: setting.int({
    default: 60,
    min: 1,
    description: 'how often every board is looked at again',
  }),
  OPERATOR_CLOCK_START: setting.optionalString({
    pattern: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/,
    description:
      'tests only: the time (ISO, UTC) the clock deciding period ends shows at start; it then runs at real speed',
  }),
  LOG_LEVEL: setting.oneOf(['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const, {
    default: 'info',
    description: 'log level',
  }),
};

export type OperatorConfig = ConfigOf<typeof operatorSettings>;

export function readOperatorConfig(env: NodeJS.ProcessEnv = process.env): OperatorConfig {
  return readConfig(operatorSettings, env);
}
