import t from 'tap';
import { ConfigError, platformSettings, readConfig, setting } from '../src/config.ts';

t.test('platform defaults', async (t) => {
  const config = readConfig(platformSettings, {});
  t.same(config, {
    PORT: 8080,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    DATA_DIR: './data',
    AUTH_JWT_SECRET: undefined,
    AUTH_JWKS_URL: undefined,
    AUTH_ISSUER: undefined,
    AUTH_AUDIENCE: undefined,
    DEV_SIGNIN: false,
    TLS_CERT_FILE: undefined,
    TLS_KEY_FILE: undefined,
    OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
    OTEL_SERVICE_NAME: 'tessera',
    LOG_FORMAT: 'auto',
    SHUTDOWN_TIMEOUT_MS: 10000,
    RATE_LIMIT_ENABLED: true,
    RATE_LIMIT_REDIS_PREFIX: 'tessera:rate-limit:',
    DATA_FSYNC: true,
    HTTP_REQUEST_TIMEOUT_MS: 10000,
    HTTP_MAX_URL_LENGTH: 8192,
    HTTP_FAST_FRONT: true,
    TRUST_PROXY: false,
    AUTH_FAILURE_LIMIT_PER_MINUTE: 600,
  });
  t.ok(Object.isFrozen(config));
});

t.test('values are parsed and typed', async (t) => {
  const config = readConfig(platformSettings, {
    PORT: '9090',
    LOG_LEVEL: 'DEBUG',
    AUTH_JWT_SECRET: 's'.repeat(32),
    AUTH_JWKS_URL: 'https://idp.example/jwks.json',
    RATE_LIMIT_ENABLED: 'no',
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
  });
  t.equal(config.PORT, 9090);
  t.equal(config.LOG_LEVEL, 'debug', 'oneOf matches case-insensitively and returns the canonical value');
  t.equal(config.RATE_LIMIT_ENABLED, false);
  t.equal(config.AUTH_JWKS_URL, 'https://idp.example/jwks.json');
});

t.test('empty strings count as unset', async (t) => {
  const config = readConfig(platformSettings, { PORT: '', LOG_LEVEL: '', AUTH_JWT_SECRET: '' });
  t.equal(config.PORT, 8080);
  t.equal(config.LOG_LEVEL, 'info');
  t.equal(config.AUTH_JWT_SECRET, undefined);
});

t.test('all problems are reported in one ConfigError', async (t) => {
  try {
    readConfig(platformSettings, {
      PORT: 'abc',
      LOG_LEVEL: 'loud',
      AUTH_JWT_SECRET: 'short-secret',
      AUTH_JWKS_URL: 'ftp://x',
      RATE_LIMIT_ENABLED: 'maybe',
      SHUTDOWN_TIMEOUT_MS: '-1',
      LOG_FORMAT: 'fancy',
      HTTP_REQUEST_TIMEOUT_MS: '5',
      HTTP_MAX_URL_LENGTH: '1e4',
      AUTH_FAILURE_LIMIT_PER_MINUTE: '-3',
    });
    t.fail('should throw');
  } catch (error) {
    t.type(error, ConfigError);
    t.equal(
      (error as Error).message,
      [
        'Invalid configuration:',
        '  PORT must be an integer between 0 and 65535 (got "abc")',
        '  LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
        '  AUTH_JWT_SECRET must be at least 32 characters (got 12)',
        '  AUTH_JWKS_URL must be an http(s) URL (got "ftp://x")',
        '  LOG_FORMAT must be one of auto, json, pretty (got "fancy")',
        '  SHUTDOWN_TIMEOUT_MS must be an integer >= 0 (got "-1")',
        '  RATE_LIMIT_ENABLED must be one of true, false, 1, 0, yes, no (got "maybe")',
        '  HTTP_REQUEST_TIMEOUT_MS must be an integer >= 100 (got "5")',
        '  HTTP_MAX_URL_LENGTH must be an integer between 256 and 65536 (got "1e4")',
        '  AUTH_FAILURE_LIMIT_PER_MINUTE must be an integer >= 0 (got "-3")',
      ].join('\n'),
    );
    t.notMatch((error as Error).message, /short-secret/, 'secrets are never echoed');
  }
});

t.test('each setting kind', async (t) => {
  const schema = {
    NAME: setting.string(),
    CODE: setting.string({ pattern: /^[A-Z]{3}$/, default: 'ABC' }),
    MAYBE: setting.optionalString({ pattern: /^x/ }),
    COUNT: setting.int({ max: 5 }),
    FLAG: setting.bool(),
    MODE: setting.oneOf(['fast', 'safe'] as const, { default: 'safe' }),
    HOOK: setting.url(),
  };
  const ok = readConfig(schema, { NAME: 'n', MAYBE: 'xy', COUNT: '+5', FLAG: 'YES', HOOK: 'http://h' });
  t.same(ok, { NAME: 'n', CODE: 'ABC', MAYBE: 'xy', COUNT: 5, FLAG: true, MODE: 'safe', HOOK: 'http://h' });
  const mode: 'fast' | 'safe' = ok.MODE;
  t.equal(mode, 'safe');

  t.throws(
    () => readConfig(schema, { CODE: 'abcd', MAYBE: 'y', COUNT: '6', HOOK: 'not a url', MODE: 'slow' }),
    {
      message: [
        'Invalid configuration:',
        '  NAME is required',
        '  CODE must match /^[A-Z]{3}$/ (got "abcd")',
        '  MAYBE must match /^x/ (got "y")',
        '  COUNT must be an integer <= 5 (got "6")',
        '  FLAG is required',
        '  MODE must be one of fast, safe (got "slow")',
        '  HOOK must be an http(s) URL (got "not a url")',
      ].join('\n'),
    },
  );
  t.throws(() => readConfig({ N: setting.int() }, { N: '1.5' }), {
    message: /N must be an integer \(got "1.5"\)/,
  });
  t.throws(() => readConfig({ N: setting.int() }, { N: '99999999999999999999' }), ConfigError);
});

t.test('describe summarises a setting', async (t) => {
  t.equal(platformSettings.PORT.describe, 'integer between 0 and 65535, default 8080 - HTTP port');
  t.equal(
    platformSettings.LOG_LEVEL.describe,
    'one of fatal, error, warn, info, debug, trace, silent, default "info"',
  );
  t.equal(setting.bool().describe, 'boolean');
});

t.test('readConfig defaults to process.env', async (t) => {
  process.env['KIT_TEST_VALUE'] = '7';
  t.teardown(() => delete process.env['KIT_TEST_VALUE']);
  t.equal(readConfig({ KIT_TEST_VALUE: setting.int() }).KIT_TEST_VALUE, 7);
});
