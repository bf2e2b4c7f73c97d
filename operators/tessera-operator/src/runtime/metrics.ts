/** The operator's series on /metrics (prom-client), in a registry of its own per instance. */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface OperatorMetrics {
  readonly registry: Registry;
  readonly reconciles: Counter<'kind' | 'result'>;
  readonly reconcileSeconds: Histogram<'kind'>;
  readonly queueDepth: Gauge<'kind'>;
  readonly leader: Gauge;
}

export function createMetrics(defaults = true): OperatorMetrics {
  const registry = new Registry();
  const registers = [registry];
  if (defaults) collectDefaultMetrics({ register: registry });
  return {
    registry,
    reconciles: new Counter({
      name: 'tessera_operator_reconciles_total',
      help: 'Reconciles run, by kind and result (success, requeue, error)',
      labelNames: ['kind', 'result'],
      registers,
    }),
    reconcileSeconds: new Histogram({
      name: 'tessera_operator_reconcile_seconds',
      help: 'Time one reconcile took',
      labelNames: ['kind'],
      buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    queueDepth: new Gauge({
      name: 'tessera_operator_queue_depth',
      help: 'Keys waiting or running in the work queue',
      labelNames: ['kind'],
      registers,
    }),
    leader: new Gauge({
      name: 'tessera_operator_leader',
      help: '1 while this replica holds the leader Lease',
      registers,
    }),
  };
}
