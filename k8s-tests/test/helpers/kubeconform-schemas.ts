/**
 * kubeconform's schemas without a network: the built-in kinds from the real kube-apiserver's own
 * OpenAPI document (/openapi/v2, what kubernetes-json-schema is made from), the Tessera kinds from
 * the operator's schemas (the CRDs' one source). Written in kubeconform's file naming
 * (`{kind}{-group-version}.json`), strict: an object with properties allows no others, so a typo
 * in a template fails instead of being pruned by the API server.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { request, type RequestOptions } from 'node:https';
import { join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { KINDS, GROUP, VERSION, toKubeconformSchema } from '@tessera/operator';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface OpenApiV2 {
  definitions: Record<string, JsonObject>;
}

/** GET a path of the API server with the kubeconfig's credentials. */
export async function getRaw(config: KubeConfig, path: string): Promise<string> {
  const cluster = config.getCurrentCluster();
  if (cluster === null) throw new Error('the kubeconfig names no cluster');
  const options: RequestOptions = {};
  await config.applyToHTTPSOptions(options);
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, cluster.server), { ...options, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        res.statusCode === 200
          ? resolve(body)
          : reject(new Error(`GET ${path}: ${res.statusCode} ${body.slice(0, 200)}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** kubeconform's `{{ .ResourceKind }}{{ .KindSuffix }}`: the first label of the group, then the version. */
export function schemaFileName(kind: string, group: string, version: string): string {
  const suffix = group === '' ? `-${version}` : `-${group.split('.')[0]}-${version}`;
  return `${kind.toLowerCase()}${suffix}.json`.toLowerCase();
}

const INT_OR_STRING = { oneOf: [{ type: 'string' }, { type: 'integer' }] };

/** Objects with properties allow no others (recursively, refs and all). */
function strict(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(strict);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] =
      key === 'properties' && value !== null && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strict(v)]))
        : strict(value);
  }
  if (out.properties !== undefined && out.additionalProperties === undefined)
    out.additionalProperties = false;
  return out;
}

function references(schema: Json, found: Set<string>): void {
  if (Array.isArray(schema)) for (const item of schema) references(item, found);
  else if (schema !== null && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string') found.add(value.replace('#/definitions/', ''));
      else references(value, found);
    }
  }
}

/** Every definition `name` reaches through $ref. */
function closure(definitions: Record<string, JsonObject>, name: string): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  const queue = [name];
  while (queue.length > 0) {
    const next = queue.pop()!;
    if (out[next] !== undefined || definitions[next] === undefined) continue;
    out[next] = definitions[next];
    const found = new Set<string>();
    references(definitions[next], found);
    queue.push(...found);
  }
  return out;
}

/** Writes the schema files into `dir`; returns how many. */
export function writeSchemas(openApi: OpenApiV2, dir: string): number {
  mkdirSync(dir, { recursive: true });
  const definitions: Record<string, JsonObject> = {};
  for (const [name, definition] of Object.entries(openApi.definitions)) {
    definitions[name] =
      name.endsWith('.util.intstr.IntOrString') || name.endsWith('.api.resource.Quantity')
        ? INT_OR_STRING
        : (strict(definition) as JsonObject);
  }
  let written = 0;
  for (const [name, definition] of Object.entries(openApi.definitions)) {
    const kinds = definition['x-kubernetes-group-version-kind'];
    if (!Array.isArray(kinds)) continue;
    for (const gvk of kinds as { group: string; version: string; kind: string }[]) {
      const schema = {
        $schema: 'http://json-schema.org/draft-07/schema#',
        ...definitions[name],
        definitions: closure(definitions, name),
      };
      writeFileSync(join(dir, schemaFileName(gvk.kind, gvk.group, gvk.version)), JSON.stringify(schema));
      written += 1;
    }
  }
  for (const kind of KINDS) {
    writeFileSync(
      join(dir, schemaFileName(kind.kind, GROUP, VERSION)),
      JSON.stringify(strict(toKubeconformSchema(kind))),
    );
    written += 1;
  }
  return written;
}
