/**
 * Coded problem errors (RFC 9457 bodies). Each package declares its codes in one table with
 * `defineErrors`; the HTTP layer turns a thrown ProblemError into `application/problem+json`.
 */

export interface ProblemInit {
  code: string;
  status: number;
  title: string;
  detail: string;
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
  cause?: unknown;
}

export class ProblemError extends Error {
  override readonly name = 'ProblemError';
  readonly code: string;
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly extra: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, string>>;

  constructor(init: ProblemInit) {
    super(`${init.code}: ${init.detail}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.title = init.title;
    this.detail = init.detail;
    this.extra = Object.freeze({ ...init.extra });
    this.headers = Object.freeze({ ...init.headers });
  }
}

export interface ErrorSpec {
  status: number;
  title: string;
}

export type ProblemFactory = (
  detail: string,
  extra?: Record<string, unknown>,
  headers?: Record<string, string>,
) => ProblemError;

export type ErrorTable<T extends Record<string, ErrorSpec>> = { readonly [K in keyof T]: ProblemFactory } & {
  readonly table: T;
};

export function defineErrors<const T extends Record<string, ErrorSpec>>(table: T): ErrorTable<T> {
  const factories: Record<string, ProblemFactory | T> = { table };
  for (const [code, spec] of Object.entries(table)) {
    if (code === 'table') throw new Error('"table" is reserved and cannot be an error code');
    factories[code] = (detail, extra, headers) =>
      new ProblemError({ code, status: spec.status, title: spec.title, detail, extra, headers });
  }
  return Object.freeze(factories) as ErrorTable<T>;
}

/** Every code the kit itself answers with; ERRORS.md documents them (a test keeps both in step). */
export const kitErrors = defineErrors({
  KIT_VALIDATION: { status: 400, title: 'Bad request' },
  KIT_MALFORMED_REQUEST: { status: 400, title: 'Malformed request' },
  KIT_UNAUTHORIZED: { status: 401, title: 'Unauthorized' },
  KIT_FORBIDDEN: { status: 403, title: 'Forbidden' },
  KIT_NOT_FOUND: { status: 404, title: 'Not found' },
  KIT_METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed' },
  KIT_REQUEST_TIMEOUT: { status: 408, title: 'Request timeout' },
  KIT_PAYLOAD_TOO_LARGE: { status: 413, title: 'Payload too large' },
  KIT_URI_TOO_LONG: { status: 414, title: 'URI too long' },
  KIT_UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported media type' },
  KIT_RATE_LIMITED: { status: 429, title: 'Too many requests' },
  KIT_HEADERS_TOO_LARGE: { status: 431, title: 'Request header fields too large' },
  KIT_INTERNAL: { status: 500, title: 'Internal server error' },
  KIT_NOT_READY: { status: 503, title: 'Service unavailable' },
});

export type ProblemBody = { title: string; detail: string; status: number; code: string } & Record<
  string,
  unknown
>;

/** The JSON body; the extra members come first so they can never overwrite the standard ones. */
export function problemBody(e: ProblemError): ProblemBody {
  return { ...e.extra, title: e.title, detail: e.detail, status: e.status, code: e.code };
}
