/**
 * The queues' size and age as Prometheus gauges (issue 13: growth of the outbound queue means
 * an unreachable peer or too few consumers), read from the queue port at each scrape.
 */
import { Gauge, type Registry } from 'prom-client';
import { TOPIC } from './core/events.ts';
import type { Queue, QueueStats } from './ports.ts';

export function registerQueueMetrics(registry: Registry, queue: Queue): void {
  const gauge = (name: string, help: string, value: (stats: QueueStats) => number): void => {
    new Gauge({
      name,
      help,
      labelNames: ['topic'],
      registers: [registry],
      async collect() {
        for (const topic of Object.values(TOPIC)) this.set({ topic }, value(await queue.stats(topic)));
      },
    });
  };
  gauge('mail_queue_size', 'Jobs waiting or in progress, per mail queue', (s) => s.size);
  gauge(
    'mail_queue_oldest_age_seconds',
    'Age of the oldest job, per mail queue (0 when empty)',
    (s) => s.oldestAgeMs / 1000,
  );
}
