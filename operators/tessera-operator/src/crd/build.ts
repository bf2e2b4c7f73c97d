/**
 * From a kind's definition to the CustomResourceDefinition object, and to the JSON schema
 * kubeconform checks rendered manifests with. Pure: the same definition always gives the same
 * objects (key order included), so the generated files can be drift-tested.
 */
import type { TObject, TSchema } from '@sinclair/typebox';
import { GROUP, VERSION, type KindDefinition } from './define.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** TypeBox keeps its bookkeeping under symbols; JSON sees only the schema. */
function plain(schema: TSchema): { [key: string]: Json } {
  return JSON.parse(JSON.stringify(schema)) as { [key: string]: Json };
}

/** The object schema of a kind: apiVersion, kind, metadata, spec and status. */
export function openApiSchema(definition: KindDefinition<TObject, TObject>): { [key: string]: Json } {
  const schema: { [key: string]: Json } = {
    type: 'object',
    description: definition.description,
    required: ['spec'],
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: plain(definition.spec),
      status: plain(definition.status),
    },
  };
  if (definition.rules !== undefined && definition.rules.length > 0) {
    schema['x-kubernetes-validations'] = definition.rules.map((r) => ({ ...r }));
  }
  return schema;
}

export interface CrdObject {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string; labels: Record<string, string> };
  spec: { [key: string]: Json };
}

export function toCustomResourceDefinition(definition: KindDefinition<TObject, TObject>): CrdObject {
  const subresources: { [key: string]: Json } = { status: {} };
  if (definition.scale !== undefined) subresources.scale = { ...definition.scale };
  const names: { [key: string]: Json } = {
    kind: definition.kind,
    listKind: `${definition.kind}List`,
    plural: definition.plural,
    singular: definition.singular,
  };
  if (definition.shortNames !== undefined) names.shortNames = [...definition.shortNames];
  if (definition.categories !== undefined) names.categories = [...definition.categories];
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${definition.plural}.${GROUP}`,
      labels: { 'app.kubernetes.io/part-of': 'tessera' },
    },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names,
      versions: [
        {
          name: VERSION,
          served: true,
          storage: true,
          subresources,
          additionalPrinterColumns: definition.printerColumns.map((c) => ({ ...c })),
          schema: { openAPIV3Schema: openApiSchema(definition) },
        },
      ],
    },
  };
}

/**
 * The JSON schema kubeconform validates a rendered resource with
 * (`{kind}-{version}.json` in its schema-location layout). The Kubernetes extensions stay in:
 * kubeconform ignores keys it does not know.
 */
export function toKubeconformSchema(definition: KindDefinition<TObject, TObject>): { [key: string]: Json } {
  const schema = openApiSchema(definition);
  return { $schema: 'http://json-schema.org/draft-07/schema#', ...schema };
}
