/**
 * Request validation. Bodies are checked strictly (no coercion, unknown fields rejected) because
 * clients send JSON with real types; querystring, params and headers arrive as text, so their
 * numbers and booleans are converted first, strictly (see text-coercion.ts): `?limit=5` becomes
 * 5, while `0x10`, `+5`, ` 5`, `1e1` or `5.0` stay text and fail as "must be integer".
 */
import { Ajv } from 'ajv';
import type { ErrorObject, Options } from 'ajv';
import { withStrictCoercion } from './text-coercion.ts';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { kitErrors } from '../errors.ts';
import type { ProblemError } from '../errors.ts';

// ajv-formats is CommonJS with a `default` property; Node hands ESM importers module.exports.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const shared: Options = {
  allErrors: true,
  removeAdditional: false,
  useDefaults: true,
  // The same schema object can be compiled for GET and its HEAD twin; never cache it by $id.
  addUsedSchema: false,
  // OpenAPI annotations that Ajv does not know about.
  keywords: ['example', 'xml', 'discriminator', 'externalDocs'],
};

type JsonObject = Record<string, unknown>;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Makes object schemas in a body reject unknown properties unless they say otherwise: a typo in
 * a field name must be a 400, not a silently ignored value. Schemas combined with allOf/anyOf/
 * oneOf/if are left alone, because closing their parts would reject the other parts' fields.
 */
export function closeObjectSchemas(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjectSchemas);
  if (!isObject(schema)) return schema;
  const copy: JsonObject = { ...schema };
  if (isObject(copy['properties'])) {
    copy['properties'] = Object.fromEntries(
      Object.entries(copy['properties']).map(([k, v]) => [k, closeObjectSchemas(v)]),
    );
    const combined = ['allOf', 'anyOf', 'oneOf', 'if', 'patternProperties'].some((k) => k in copy);
    if (!combined && !('additionalProperties' in copy)) copy['additionalProperties'] = false;
  }
  if ('items' in copy) copy['items'] = closeObjectSchemas(copy['items']);
  return copy;
}

/** One validator compiler per app; `sharedSchemas` supplies schemas added with app.addSchema. */
export function createValidatorCompiler(
  sharedSchemas: () => Record<string, unknown>,
): FastifySchemaCompiler<unknown> {
  const body = addFormats(new Ajv({ ...shared, coerceTypes: false }));
  // Ajv's own coercion takes whatever Number() takes (hex, exponents, blanks): not used for text.
  const text = addFormats(new Ajv({ ...shared, coerceTypes: false }));
  const added = new Set<string>();

  return ({ schema, httpPart }) => {
    for (const [id, s] of Object.entries(sharedSchemas())) {
      if (added.has(id)) continue;
      added.add(id);
      body.addSchema(s as JsonObject, id);
      text.addSchema(s as JsonObject, id);
    }
    return httpPart === 'body'
      ? body.compile(closeObjectSchemas(schema) as JsonObject)
      : withStrictCoercion(text.compile(schema as JsonObject), schema);
  };
}

export interface FieldError {
  field: string;
  message: string;
}

function unescapePointer(path: string): string {
  return path.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** Turns one Ajv error into a message that names the field, as clients need to fix it. */
export function describeValidationError(part: string, e: ErrorObject): FieldError {
  const at = `${part}${unescapePointer(e.instancePath)}`;
  if (e.keyword === 'required') {
    const missing = String((e.params as { missingProperty?: unknown }).missingProperty);
    return { field: `${at}/${missing}`, message: 'is required' };
  }
  if (e.keyword === 'additionalProperties') {
    const extra = String((e.params as { additionalProperty?: unknown }).additionalProperty);
    return { field: `${at}/${extra}`, message: `unknown field "${extra}" in ${at}` };
  }
  return { field: at, message: e.message ?? `fails ${e.keyword}` };
}

function sentence(e: FieldError): string {
  return e.message.startsWith('unknown field') ? e.message : `${e.field} ${e.message}`;
}

/** The 400 problem for a fastify validation error (`error.validation` from Ajv). */
export function validationProblem(part: string, errors: readonly ErrorObject[]): ProblemError {
  const fields: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const field = describeValidationError(part, e);
    const line = sentence(field);
    if (seen.has(line)) continue;
    seen.add(line);
    fields.push(field);
  }
  const detail = fields.map(sentence).join('; ') || `${part} is invalid`;
  return kitErrors.KIT_VALIDATION(detail, { errors: fields });
}
