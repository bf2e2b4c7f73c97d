/**
 * Events for what a person should see (`kubectl describe leaderboard` and `kubectl get events`):
 * an archive started, finished or failed, an archive deleted by retention, a bad spec. Recording
 * an Event is best effort: a failure is logged, never fails the reconcile.
 */
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';

export interface EventSubject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { name: string; namespace: string; uid?: string; resourceVersion?: string };
}

export type EventType = 'Normal' | 'Warning';

export interface EventRecorder {
  record(subject: EventSubject, type: EventType, reason: string, message: string): Promise<void>;
}

export function eventRecorder(config: KubeConfig, component: string, logger: Logger): EventRecorder {
  const core = config.makeApiClient(CoreV1Api);
  return {
    async record(subject, type, reason, message) {
      const { name, namespace, uid } = subject.metadata;
      const now = new Date();
      try {
        await core.createNamespacedEvent({
          namespace,
          body: {
            metadata: { generateName: `${name}.`, namespace },
            involvedObject: { apiVersion: subject.apiVersion, kind: subject.kind, name, namespace, uid },
            type,
            reason,
            message,
            source: { component },
            reportingComponent: component,
            reportingInstance: process.env.POD_NAME ?? component,
            firstTimestamp: now,
            lastTimestamp: now,
            count: 1,
            action: reason,
          },
        });
      } catch (error) {
        logger.warn({ err: error, reason }, 'could not record an event');
      }
    },
  };
}
