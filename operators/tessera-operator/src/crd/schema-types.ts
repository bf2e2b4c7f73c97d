/**
 * The pieces of a Kubernetes structural schema that TypeBox does not spell: enums as
 * `{type: string, enum}` (TypeBox's unions of literals become `anyOf`/`const`, which a CRD schema
 * refuses), quantities (int-or-string), secret key references and CEL rules. Each returns a TypeBox
 * schema, so the static type of a resource follows from the same object the CRD is generated from.
 * No `additionalProperties: false`: a structural schema prunes unknown fields instead.
 */
import { Type, type SchemaOptions, type TSchema, type TUnsafe } from '@sinclair/typebox';

/** A CEL rule as `x-kubernetes-validations` carries it. */
export interface CelRule {
  readonly rule: string;
  readonly message: string;
  /** The field the API server names in the 422 (JSONPath relative to the schema). */
  readonly fieldPath?: string;
  readonly reason?:
    'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
}

/** A string from a fixed list. */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: SchemaOptions = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });
}

/** A Kubernetes quantity such as `500m`, `1Gi` or `2`. */
export function Quantity(options: SchemaOptions = {}): TUnsafe<string | number> {
  return Type.Unsafe<string | number>({
    ...options,
    anyOf: [{ type: 'integer' }, { type: 'string' }],
    pattern:
      '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$',
    'x-kubernetes-int-or-string': true,
  });
}

/** `{requests, limits}` as a container's resources are written. */
export function ResourceRequirements(options: SchemaOptions = {}) {
  // A map as `additionalProperties` (TypeBox's Record writes `patternProperties`, which a CRD refuses).
  const quantities = Type.Optional(
    Type.Unsafe<Record<string, string | number>>({ type: 'object', additionalProperties: Quantity() }),
  );
  return Type.Object({ requests: quantities, limits: quantities }, options);
}

/** A key of a Secret in the resource's own namespace, as `env[].valueFrom.secretKeyRef` names it. */
export function SecretKeyRef(options: SchemaOptions = {}) {
  return Type.Object(
    {
      secretKeyRef: Type.Object(
        {
          name: Type.String({ minLength: 1, maxLength: 253, pattern: '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$' }),
          key: Type.String({ minLength: 1, maxLength: 253, pattern: '^[-._a-zA-Z0-9]+$' }),
        },
        { description: 'a key of a Secret in the same namespace' },
      ),
    },
    options,
  );
}

/** The standard condition shape (metav1.Condition). */
export const Condition = Type.Object({
  type: Type.String({ maxLength: 316 }),
  status: StringEnum(['True', 'False', 'Unknown'] as const),
  reason: Type.String({ maxLength: 1024 }),
  message: Type.String({ maxLength: 32768 }),
  lastTransitionTime: Type.String({ format: 'date-time' }),
  observedGeneration: Type.Optional(Type.Integer({ minimum: 0 })),
});

/** Conditions as a map keyed by type, so server-side apply merges them entry by entry. */
export function Conditions() {
  return Type.Array(Condition, { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] });
}

/** Attaches CEL rules to a schema (kept apart so the rules read as a list next to the type). */
export function withRules<T extends TSchema>(schema: T, rules: readonly CelRule[]): T {
  return { ...schema, 'x-kubernetes-validations': rules };
}
