import t from 'tap';
import { readMailConfig } from '../src/config.ts';

t.test('defaults: tessera.local, SMTP on 2525, 25 MB attachments', async (t) => {
  const config = readMailConfig({});
  t.same(config.domains, ['tessera.local']);
  t.equal(config.SMTP_PORT, 2525);
  t.equal(config.MAIL_ATTACHMENT_LIMIT_BYTES, 25 * 1024 * 1024);
  t.equal(config.SPAMD_URL, undefined);
});

t.test('several domains, lower-cased, the first primary', async (t) => {
  t.same(readMailConfig({ MAIL_DOMAIN: 'Mail.Example.org,tessera.local' }).domains, [
    'mail.example.org',
    'tessera.local',
  ]);
});

t.test('every bad variable is reported at once', async (t) => {
  let message = '';
  try {
    readMailConfig({
      MAIL_DOMAIN: 'a b',
      SMTP_PORT: '70000',
      SPAMD_URL: 'http://x',
      MAIL_DNS_SERVER: 'dns.example',
    });
  } catch (error) {
    message = (error as Error).message;
  }
  for (const name of ['MAIL_DOMAIN', 'SMTP_PORT', 'SPAMD_URL', 'MAIL_DNS_SERVER']) t.match(message, name);
  t.throws(
    () => readMailConfig({ SMTP_TLS_CERT_FILE: '/c.pem' }),
    /SMTP_TLS_CERT_FILE and SMTP_TLS_KEY_FILE/,
  );
  t.throws(
    () => readMailConfig({ MAIL_RETRY_BASE_MS: '10', MAIL_RETRY_MAX_MS: '5' }),
    /MAIL_RETRY_MAX_MS must be >=/,
  );
});
