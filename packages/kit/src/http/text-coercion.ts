/**
 * Strict conversion of querystring, path and header values (text) to the types their schema
 * declares, before validation. Only plain decimal text converts: `5` and `-5` are integers,
 * `0x10`, `+5`, ` 5`, `1e1` and `5.0` are not, so they reach the validator as text and fail with
 * a message naming the field. Top-level properties are converted (these parts are flat objects);
 * a property behind `$ref` or a combinator is left as text.
 */
import type { ValidateFunction } from 'ajv';

type Kind = 'integer' | 'number' | 'boolean';
type Coercion = { readonly kind: Kind; readonly array: boolean };
type NamedCoercion = Coercion & { readonly name: string };

const numberText = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/** `-?[0-9]+`, by character codes: this runs for every integer field of every request. */
function isIntegerText(text: string): boolean {
  let i = text.charCodeAt(0) === 45 ? 1 : 0;
  if (i === text.length) return false;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

function scalarKind(type: unknown): Kind | undefined {
  const types = Array.isArray(type) ? type : [type];
  if (types.includes('integer')) return 'integer';
  if (types.includes('number')) return 'number';
  if (types.includes('boolean')) return 'boolean';
  return undefined;
}

function coercionOf(schema: unknown): Coercion | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const { type, items } = schema as { type?: unknown; items?: unknown };
  const kind = scalarKind(type);
  if (kind !== undefined) return { kind, array: false };
  const types = Array.isArray(type) ? type : [type];
  if (!types.includes('array') || typeof items !== 'object' || items === null) return undefined;
  const itemKind = scalarKind((items as { type?: unknown }).type);
  return itemKind === undefined ? undefined : { kind: itemKind, array: true };
}

export function coerceText(kind: Kind, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  switch (kind) {
    case 'integer':
      return isIntegerText(value) ? Number(value) : value;
    case 'number':
      return numberText.test(value) ? Number(value) : value;
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : value;
  }
}

type Validator = ((data: unknown) => boolean) & { errors?: ValidateFunction['errors'] };

/** Wraps a non-coercing validator of a text part; returns it unchanged when nothing converts. */
export function withStrictCoercion(validate: ValidateFunction, schema: unknown): Validator {
  const properties = (schema as { properties?: Record<string, unknown> } | null)?.properties ?? {};
  const coercions: NamedCoercion[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const coercion = coercionOf(property);
    if (coercion !== undefined) coercions.push({ name, ...coercion });
  }
  if (coercions.length === 0) return validate;
  const wrapped: Validator = (data) => {
    if (typeof data === 'object' && data !== null) {
      const fields = data as Record<string, unknown>;
      for (let i = 0; i < coercions.length; i++) {
        const { name, kind, array } = coercions[i] as NamedCoercion;
        const value = fields[name];
        if (value === undefined) continue;
        if (!array) fields[name] = coerceText(kind, value);
        // A single `?id=1` is one item; a repeated key arrives as an array already.
        else fields[name] = (Array.isArray(value) ? value : [value]).map((v) => coerceText(kind, v));
      }
    }
    const ok = validate(data);
    wrapped.errors = validate.errors;
    return ok;
  };
  return wrapped;
}
