import { ConfigError, readConfig, setting, type ConfigOf } from '@tessera/kit';

const MB = 1024 * 1024;

/** The mail service's settings; each key is the environment variable. */
export const mailSettings = {
  MAIL_DOMAIN: setting.string({
    default: 'tessera.local',
    pattern: /^[a-z0-9.-]+(,[a-z0-9.-]+)*$/i,
    description: 'local mail domains, comma separated; the first is the one new mailboxes and bounces use',
  }),
  SMTP_PORT: setting.int({
    default: 2525,
    min: 0,
    max: 65535,
    description: 'inbound SMTP port (0: any free port)',
  }),
  SMTP_HOST: setting.string({
    default: '127.0.0.1',
    description: 'address the inbound SMTP server listens on',
  }),
  SMTP_TLS_CERT_FILE: setting.optionalString({
    description: 'PEM certificate; enables STARTTLS with SMTP_TLS_KEY_FILE',
  }),
  SMTP_TLS_KEY_FILE: setting.optionalString({ description: 'PEM private key for STARTTLS' }),
  SMTP_REMOTE_PORT: setting.int({
    default: 25,
    min: 1,
    max: 65535,
    description: 'port smtp-out connects to on a remote MX (25; tests point it at a local sink)',
  }),
  MAIL_MAX_MESSAGE_BYTES: setting.int({
    default: 35 * MB,
    min: 1024,
    description: 'largest message accepted over SMTP or REST (encoded size)',
  }),
  MAIL_ATTACHMENT_LIMIT_BYTES: setting.int({
    default: 25 * MB,
    min: 1,
    description: 'largest total of attachments of one message for a personal account',
  }),
  MAIL_BUSINESS_ATTACHMENT_LIMIT_BYTES: setting.int({
    default: 50 * MB,
    min: 1,
    description: 'largest total of attachments of one message for a business account',
  }),
  MAIL_DNS_SERVER: setting.optionalString({
    pattern: /^[0-9a-f.:[\]]+$/i,
    description: 'DNS server (ip or ip:port) for MX lookups; unset: the system resolver',
  }),
  MAIL_DKIM_SELECTOR: setting.string({
    default: 'tessera',
    description: 'DKIM selector of outbound signatures',
  }),
  MAIL_DKIM_KEY_FILE: setting.optionalString({
    description: 'PEM private key; enables DKIM signing of outbound mail',
  }),
  SPAMD_URL: setting.optionalString({
    pattern: /^spamd:\/\/[^/]+$/,
    description: 'SpamAssassin spamd, as spamd://host:port; unset: the built-in scorer only',
  }),
  CLAMD_URL: setting.optionalString({
    pattern: /^clamd:\/\/[^/]+$/,
    description: 'ClamAV clamd, as clamd://host:port; unset: no virus check',
  }),
  MAIL_SPAM_THRESHOLD: setting.int({
    default: 5,
    min: 1,
    description: 'built-in spam score at which mail goes to Junk',
  }),
  MAIL_SEND_LIMIT_PER_MINUTE: setting.int({
    default: 60,
    min: 1,
    description: 'messages one user may send per minute',
  }),
  MAIL_RETRY_BASE_MS: setting.int({
    default: 60_000,
    min: 1,
    description: 'first delivery retry delay; doubles per attempt',
  }),
  MAIL_RETRY_MAX_MS: setting.int({
    default: 3_600_000,
    min: 1,
    description: 'longest delay between delivery attempts',
  }),
  MAIL_CONSUMER_THREAD: setting.bool({
    default: false,
    description:
      'run the worker and the indexer on a thread of their own (SMTP acceptance gains on more cores; each start of the service takes longer)',
  }),
  MAIL_INDEX_EVERY_MS: setting.int({
    default: 100,
    min: 1,
    max: 60_000,
    description:
      'how often new mail is added to the search index, in one write for what arrived meanwhile (new mail is searchable about this long after it is filed)',
  }),
  MAIL_JOB_LEASE_MS: setting.int({
    default: 60_000,
    min: 100,
    description:
      'how long a claimed inbound or index job is held before another consumer may take it (after a crash: the wait before it is redone)',
  }),
  MAIL_OUTBOUND_LEASE_MS: setting.int({
    default: 10 * 60_000,
    min: 100,
    description: 'the same for a batch of outbound deliveries (long enough for slow remote servers)',
  }),
  MAIL_GIVE_UP_AFTER_MS: setting.int({
    default: 5 * 24 * 3_600_000,
    min: 1,
    description: 'age at which undelivered mail is bounced to its sender',
  }),
};

export type MailSettings = ConfigOf<typeof mailSettings>;

/** The settings with the list-valued ones split, as the service uses them. */
export interface MailConfig extends MailSettings {
  /** MAIL_DOMAIN split and lower-cased; the first is the primary domain. */
  readonly domains: readonly [string, ...string[]];
}

/** Checks across settings: one line per problem, naming the variables. */
export function checkMailSettings(settings: MailSettings): string[] {
  const problems: string[] = [];
  if ((settings.SMTP_TLS_CERT_FILE === undefined) !== (settings.SMTP_TLS_KEY_FILE === undefined)) {
    problems.push('SMTP_TLS_CERT_FILE and SMTP_TLS_KEY_FILE must be set together');
  }
  if (settings.MAIL_RETRY_MAX_MS < settings.MAIL_RETRY_BASE_MS) {
    problems.push(
      `MAIL_RETRY_MAX_MS must be >= MAIL_RETRY_BASE_MS (got ${settings.MAIL_RETRY_MAX_MS} < ${settings.MAIL_RETRY_BASE_MS})`,
    );
  }
  return problems;
}

/** The settings as the service uses them: MAIL_DOMAIN split into the domains. */
export function mailConfig(settings: MailSettings): MailConfig {
  const [primary, ...others] = settings.MAIL_DOMAIN.toLowerCase().split(',');
  return Object.freeze({ ...settings, domains: [primary ?? 'tessera.local', ...others] as const });
}

export function readMailConfig(env?: Readonly<Record<string, string | undefined>>): MailConfig {
  const settings = readConfig(mailSettings, env);
  const problems = checkMailSettings(settings);
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  return mailConfig(settings);
}
