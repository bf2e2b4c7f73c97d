/**
 * One custom resource kind as data: its names, its spec and status schemas (TypeBox, so the
 * operator's types are inferred from them), printer columns and optional scale subresource. From
 * this the CRD object is built (`toCustomResourceDefinition`) — the one source for crds/*.yaml,
 * the chart's CRDs and kubeconform's JSON schemas.
 */
import type { V1ObjectMeta } from '@kubernetes/client-node';
import type { Static, TObject } from '@sinclair/typebox';
import type { CelRule } from './schema-types.ts';

export const GROUP = 'tessera.dev';
export const VERSION = 'v1alpha1';

export interface PrinterColumn {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  readonly jsonPath: string;
  readonly description?: string;
  readonly priority?: number;
}

export interface ScaleSubresource {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath?: string;
}

export interface KindDefinition<Spec extends TObject, Status extends TObject> {
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  readonly description: string;
  readonly spec: Spec;
  readonly status: Status;
  /** Rules over the whole object (e.g. tying spec fields together). */
  readonly rules?: readonly CelRule[];
  readonly printerColumns: readonly PrinterColumn[];
  readonly scale?: ScaleSubresource;
}

export function defineKind<Spec extends TObject, Status extends TObject>(
  definition: KindDefinition<Spec, Status>,
): KindDefinition<Spec, Status> {
  return definition;
}

/** ObjectMeta with the name and namespace a namespaced object always has. */
export type ResourceMetadata = V1ObjectMeta & { name: string; namespace: string };

/** A custom resource of a kind, typed from its schemas. */
export interface CustomResource<K extends KindDefinition<TObject, TObject>> {
  apiVersion: string;
  kind: string;
  metadata: ResourceMetadata;
  spec: Static<K['spec']>;
  status?: Partial<Static<K['status']>>;
}
