/**
 * The informer against a real API server: started before its resource exists (a 404, as when the
 * operator starts before its CRDs), it keeps retrying, and once the CRD is there it lists, reports
 * synced, and delivers what follows.
 */
import { randomBytes } from 'node:crypto';
import {
  ApiextensionsV1Api,
  CustomObjectsApi,
  type KubernetesListObject,
  type KubernetesObject,
} from '@kubernetes/client-node';
import t from 'tap';
import { startInformer } from '../../src/runtime/informer.ts';
import { createLogger } from '../../src/runtime/logger.ts';
import { apiServer, until } from '../helpers/api-server.ts';

t.setTimeout(600_000);

t.test('an informer started before its CRD exists syncs once it does', async (t) => {
  const { config, namespace } = await apiServer(t, 'informer');
  const group = `i${randomBytes(4).toString('hex')}.tessera.dev`;
  const target = { group, version: 'v1', plural: 'widgets', namespace };
  const custom = config.makeApiClient(CustomObjectsApi);
  const seen: string[] = [];
  const informer = startInformer<KubernetesObject>(
    config,
    {
      path: `/apis/${group}/v1/namespaces/${namespace}/widgets`,
      list: () =>
        custom.listNamespacedCustomObject(target) as Promise<KubernetesListObject<KubernetesObject>>,
    },
    { onChange: (o) => seen.push(o.metadata?.name ?? ''), logger: createLogger('silent') },
  );
  t.teardown(() => informer.stop());
  let synced = false;
  void informer.synced.then(() => (synced = true));
  // Before a check that nothing happened: under load it can let a failure pass, never fail.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  t.notOk(synced, 'not synced while the resource does not exist');

  const extensions = config.makeApiClient(ApiextensionsV1Api);
  const name = `widgets.${group}`;
  await extensions.createCustomResourceDefinition({
    body: {
      metadata: { name },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', x_kubernetes_preserve_unknown_fields: true } },
          },
        ],
      },
    },
  });
  t.teardown(() => extensions.deleteCustomResourceDefinition({ name }).then(() => undefined));
  await until(
    () => 'the informer to sync after the CRD appeared',
    () => synced,
    60_000,
  );
  await custom.createNamespacedCustomObject({
    ...target,
    body: { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'w1' } },
  });
  await until(
    () => `the watch to deliver w1 (seen: ${seen.join(', ')})`,
    () => seen.includes('w1'),
  );
});
