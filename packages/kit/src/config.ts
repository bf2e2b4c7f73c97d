/**
 * Typed settings read from the environment. The keys of a schema are the variable names, so a
 * service's configuration is documented by the object that reads it.
 */

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export interface Setting<T> {
  /** Throws ConfigError whose message is one line naming the variable. */
  parse(raw: string | undefined, name: string): T;
  /** Human-readable summary (type, default, description) for help output. */
  readonly describe: string;
}

export type ConfigOf<S extends Record<string, Setting<unknown>>> = {
  readonly [K in keyof S]: S[K] extends Setting<infer T> ? T : never;
};

// An empty variable (`FOO=`) is what a Helm template renders for a missing value: treat it as unset.
function present(raw: string | undefined): raw is string {
  return raw !== undefined && raw !== '';
}

function describe(kind: string, fallback: unknown, description: string | undefined): string {
  const withDefault = fallback === undefined ? kind : `${kind}, default ${JSON.stringify(fallback)}`;
  return description === undefined ? withDefault : `${withDefault} - ${description}`;
}

function invalid(name: string, rule: string, raw: string): ConfigError {
  return new ConfigError(`${name} ${rule} (got ${JSON.stringify(raw)})`);
}

interface StringOpts {
  pattern?: RegExp;
  /** Checked without echoing the value, so secrets can use it. */
  minLength?: number;
  description?: string;
}

function checkString(raw: string, name: string, opts: StringOpts): string {
  if (opts.minLength !== undefined && raw.length < opts.minLength) {
    throw new ConfigError(`${name} must be at least ${opts.minLength} characters (got ${raw.length})`);
  }
  if (opts.pattern !== undefined && !opts.pattern.test(raw)) {
    throw invalid(name, `must match ${String(opts.pattern)}`, raw);
  }
  return raw;
}

function string(opts: StringOpts & { default?: string } = {}): Setting<string> {
  return {
    describe: describe('string', opts.default, opts.description),
    parse(raw, name) {
      if (!present(raw)) {
        if (opts.default !== undefined) return opts.default;
        throw new ConfigError(`${name} is required`);
      }
      return checkString(raw, name, opts);
    },
  };
}

function optionalString(opts: StringOpts = {}): Setting<string | undefined> {
  return {
    describe: describe('optional string', undefined, opts.description),
    parse: (raw, name) => (present(raw) ? checkString(raw, name, opts) : undefined),
  };
}

function intRule(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `must be an integer between ${min} and ${max}`;
  if (min !== undefined) return `must be an integer >= ${min}`;
  if (max !== undefined) return `must be an integer <= ${max}`;
  return 'must be an integer';
}

function int(
  opts: { default?: number; min?: number; max?: number; description?: string } = {},
): Setting<number> {
  const rule = intRule(opts.min, opts.max);
  return {
    describe: describe(rule.replace('must be an ', ''), opts.default, opts.description),
    parse(raw, name) {
      if (!present(raw)) {
        if (opts.default !== undefined) return opts.default;
        throw new ConfigError(`${name} is required`);
      }
      const value = /^[+-]?\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
      const ok =
        Number.isSafeInteger(value) &&
        (opts.min === undefined || value >= opts.min) &&
        (opts.max === undefined || value <= opts.max);
      if (!ok) throw invalid(name, rule, raw);
      return value;
    },
  };
}

const truthy = new Set(['true', '1', 'yes']);
const falsy = new Set(['false', '0', 'no']);

function bool(opts: { default?: boolean; description?: string } = {}): Setting<boolean> {
  return {
    describe: describe('boolean', opts.default, opts.description),
    parse(raw, name) {
      if (!present(raw)) {
        if (opts.default !== undefined) return opts.default;
        throw new ConfigError(`${name} is required`);
      }
      const word = raw.trim().toLowerCase();
      if (truthy.has(word)) return true;
      if (falsy.has(word)) return false;
      throw invalid(name, 'must be one of true, false, 1, 0, yes, no', raw);
    },
  };
}

function oneOf<const T extends string>(
  values: readonly T[],
  opts: { default?: T; description?: string } = {},
): Setting<T> {
  return {
    describe: describe(`one of ${values.join(', ')}`, opts.default, opts.description),
    parse(raw, name) {
      if (!present(raw)) {
        if (opts.default !== undefined) return opts.default;
        throw new ConfigError(`${name} is required`);
      }
      // Operators write LOG_LEVEL=DEBUG as often as debug; the canonical spelling is returned.
      const found =
        values.find((v) => v === raw) ?? values.find((v) => v.toLowerCase() === raw.toLowerCase());
      if (found === undefined) throw invalid(name, `must be one of ${values.join(', ')}`, raw);
      return found;
    },
  };
}

function url(opts: { description?: string } = {}): Setting<string | undefined> {
  return {
    describe: describe('optional http(s) URL', undefined, opts.description),
    parse(raw, name) {
      if (!present(raw)) return undefined;
      const parsed = URL.canParse(raw) ? new URL(raw) : undefined;
      if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') {
        throw invalid(name, 'must be an http(s) URL', raw);
      }
      return raw;
    },
  };
}

export const setting = { string, optionalString, int, bool, oneOf, url } as const;

/** Every value that parsed, and one line per variable that did not. */
export interface ParsedConfig<S extends Record<string, Setting<unknown>>> {
  readonly values: ConfigOf<S>;
  readonly problems: readonly string[];
}

/**
 * Reads every setting and collects the problems instead of stopping at the first, so that a
 * process reading several tables (the platform's and each service's) reports them all at once.
 */
export function parseConfig<S extends Record<string, Setting<unknown>>>(
  schema: S,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ParsedConfig<S> {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, s] of Object.entries(schema)) {
    try {
      values[name] = s.parse(env[name], name);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(error.message);
    }
  }
  return { values: Object.freeze(values) as ConfigOf<S>, problems };
}

/** One error naming every bad variable, so a misconfigured pod fails once, not once per mistake. */
export function configError(problems: readonly string[]): ConfigError {
  return new ConfigError(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
}

/** Reads every setting; throws one ConfigError naming every bad variable. */
export function readConfig<S extends Record<string, Setting<unknown>>>(
  schema: S,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ConfigOf<S> {
  const { values, problems } = parseConfig(schema, env);
  if (problems.length > 0) throw configError(problems);
  return values;
}

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const logFormats = ['auto', 'json', 'pretty'] as const;

/** Settings every service reads; services spread these into their own schema. */
export const platformSettings = {
  PORT: setting.int({ default: 8080, min: 0, max: 65535, description: 'HTTP port' }),
  HOST: setting.string({ default: '127.0.0.1', description: 'address to listen on' }),
  LOG_LEVEL: setting.oneOf(logLevels, { default: 'info' }),
  DATA_DIR: setting.string({ default: './data', description: 'directory for local state' }),
  AUTH_JWT_SECRET: setting.optionalString({ minLength: 32, description: 'HS256 secret for bearer tokens' }),
  AUTH_JWKS_URL: setting.url({ description: 'JWKS for RS256/ES256 bearer tokens' }),
  AUTH_ISSUER: setting.optionalString({ description: 'required `iss` claim' }),
  AUTH_AUDIENCE: setting.optionalString({ description: 'required `aud` claim' }),
  DEV_SIGNIN: setting.bool({
    default: false,
    description:
      'offer the development sign-in (/signin/, mints any token) even beyond loopback: a development cluster only',
  }),
  TLS_CERT_FILE: setting.optionalString({ description: 'PEM certificate; enables HTTPS with TLS_KEY_FILE' }),
  TLS_KEY_FILE: setting.optionalString({ description: 'PEM private key' }),
  OTEL_EXPORTER_OTLP_ENDPOINT: setting.url({ description: 'OTLP/HTTP collector; enables tracing' }),
  OTEL_SERVICE_NAME: setting.string({ default: 'tessera' }),
  LOG_FORMAT: setting.oneOf(logFormats, {
    default: 'auto',
    description: 'auto: readable at a terminal, JSON lines otherwise',
  }),
  SHUTDOWN_TIMEOUT_MS: setting.int({
    default: 10000,
    min: 0,
    description: 'on SIGTERM, how long in-flight requests may finish before every connection is closed',
  }),
  RATE_LIMIT_ENABLED: setting.bool({ default: true }),
  REDIS_URL: setting.optionalString({
    pattern: /^rediss?:\/\/\S+$/,
    description:
      "Redis, redis://[user:password@]host:port[/db]: the rate-limit counters every process of a service shares (and the services' own uses)",
  }),
  RATE_LIMIT_REDIS_PREFIX: setting.string({
    default: 'tessera:rate-limit:',
    description: "prefix of the rate-limit counters' Redis keys",
  }),
  DATA_FSYNC: setting.bool({
    default: true,
    description: 'fsync every commit of the embedded stores (off: a process crash still loses nothing)',
  }),
  HTTP_REQUEST_TIMEOUT_MS: setting.int({
    default: 10000,
    min: 100,
    description: 'a request (headers and body) must arrive within this, else 408 and the connection closes',
  }),
  HTTP_MAX_URL_LENGTH: setting.int({
    default: 8192,
    min: 256,
    max: 65536,
    description: 'longer request targets are answered 414',
  }),
  HTTP_FAST_FRONT: setting.bool({
    default: true,
    description:
      'plain HTTP only, where fast answers run (no rate limits, tracing or debug log): read connections before node:http and answer the fast routes on the socket',
  }),
  TRUST_PROXY: setting.bool({
    default: false,
    description:
      'behind an ingress or proxy: the client address (rate-limit key) is the first X-Forwarded-For hop',
  }),
  AUTH_FAILURE_LIMIT_PER_MINUTE: setting.int({
    default: 600,
    min: 0,
    description: 'failed authentications per client address and minute before 429 (0: no limit)',
  }),
};

export type PlatformConfig = ConfigOf<typeof platformSettings>;
