/** The objects the cluster smoke test applies, by test. */
import { container, podSpec } from './smoke-image.ts';

/** Two busybox httpd pods behind the Service `web`. */
export const webManifests = (): object[] => [
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: podSpec([
          container('httpd', ['/bin/httpd', '-f', '-v', '-p', '8080', '-h', '/www'], {
            ports: [{ containerPort: 8080 }],
            readinessProbe: { httpGet: { path: '/', port: 8080 }, periodSeconds: 1 },
          }),
        ]),
      },
    },
  },
  {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web' },
    spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] },
  },
];

/** A pod to resolve and call the Service from; it logs a line naming the namespace. */
export const clientPod = (namespace: string): object => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'client', labels: { app: 'client' } },
  spec: podSpec([container('client', ['/bin/sh', '-c', `echo client of ${namespace} up; exec sleep 3600`])]),
});

/** Routes `host` to the Service `web`. */
export const webIngress = (host: string): object => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { name: 'web' },
  spec: {
    rules: [
      {
        host,
        http: {
          paths: [
            { path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } },
          ],
        },
      },
    ],
  },
});

/** A pod that grows past its memory limit. */
export const hogPod = (): object => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'hog', labels: { app: 'hog' } },
  spec: podSpec([
    // The shell doubles a string until the limit stops it.
    container('hog', ['/bin/sh', '-c', 'x=0123456789abcdef; while true; do x=$x$x; done'], {
      resources: { limits: { memory: '24Mi' }, requests: { memory: '24Mi' } },
    }),
  ]),
});

/** A Lease held by `holder` (written over `resourceVersion` when given). */
export const lease = (holder: string, resourceVersion?: string) => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: 'engine-leader', ...(resourceVersion ? { resourceVersion } : {}) },
  spec: { holderIdentity: holder, leaseDurationSeconds: 15 },
});

/** The CRD of a namespaced kind `Shard` with a scale subresource. */
export const shardCrd = (group: string): object => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `shards.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { plural: 'shards', singular: 'shard', kind: 'Shard' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: {
          status: {},
          scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
        },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', properties: { replicas: { type: 'integer', minimum: 0 } } },
              status: { type: 'object', properties: { replicas: { type: 'integer' } } },
            },
          },
        },
      },
    ],
  },
});

/**
 * A StatefulSet pinned to the node labelled and tainted `key=id`, its headless Service, and a
 * stray pod without the toleration.
 */
export const engineManifests = (key: string, id: string): object[] => [
  {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'engine' },
    spec: { clusterIP: 'None', selector: { app: 'engine' }, ports: [{ port: 8080 }] },
  },
  {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'engine' },
    spec: {
      serviceName: 'engine',
      replicas: 1,
      selector: { matchLabels: { app: 'engine' } },
      template: {
        metadata: { labels: { app: 'engine' } },
        spec: podSpec([container('engine', ['/bin/httpd', '-f', '-p', '8080', '-h', '/www'])], {
          nodeSelector: { [key]: id },
          tolerations: [{ key, operator: 'Equal', value: id, effect: 'NoSchedule' }],
        }),
      },
    },
  },
  {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'stray', labels: { app: 'stray' } },
    spec: podSpec([container('stray', ['/bin/sleep', '3600'])]),
  },
];
