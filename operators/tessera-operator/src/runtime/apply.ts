/**
 * Children are written by server-side apply with the operator's field manager: applying the same
 * object again changes nothing (idempotent steps), a field someone else owns is taken back
 * (`force`), and a field the operator stops setting is removed.
 */
import {
  ApiException,
  KubernetesObjectApi,
  PatchStrategy,
  type KubeConfig,
  type KubernetesObject,
} from '@kubernetes/client-node';

export const FIELD_MANAGER = 'tessera-operator';

export interface Applier {
  apply<T extends KubernetesObject>(object: T): Promise<T>;
  /** Deletes an object; one already gone is no error. */
  delete(object: KubernetesObject): Promise<void>;
}

export function applier(config: KubeConfig): Applier {
  const objects = KubernetesObjectApi.makeApiClient(config);
  return {
    apply: (object) =>
      objects.patch(object, undefined, undefined, FIELD_MANAGER, true, PatchStrategy.ServerSideApply),
    async delete(object) {
      try {
        await objects.delete(object, undefined, undefined, undefined, undefined, 'Background');
      } catch (error) {
        if (!(error instanceof ApiException && error.code === 404)) throw error;
      }
    },
  };
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiException && error.code === 404;
}

export function isConflict(error: unknown): boolean {
  return error instanceof ApiException && error.code === 409;
}
