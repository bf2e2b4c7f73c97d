/** Mail started in process over a temporary data directory, with a fake clock and stub DNS. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { openEmbeddedMail } from '../../src/adapters/embedded/open-embedded.ts';
import { createMailauthVerifier } from '../../src/adapters/mailauth-verifier.ts';
import type { MailResolver } from '../../src/adapters/dns-resolver.ts';
import { readMailConfig } from '../../src/config.ts';
import type { MxRecord } from '../../src/core/delivery.ts';
import { startMail, type RunningMail, type StartMailOptions } from '../../src/mail.ts';

export function tempDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-mail-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function dnsError(code: string): Error {
  return Object.assign(new Error(`stub DNS: ${code}`), { code });
}

/** DNS answers from tables: unknown names are NXDOMAIN, known names without a record NODATA. */
export function stubResolver(zone: {
  mx?: Record<string, MxRecord[]>;
  a?: Record<string, string[]>;
}): MailResolver {
  const known = new Set([...Object.keys(zone.mx ?? {}), ...Object.keys(zone.a ?? {})]);
  const answer = async <T>(table: Record<string, T[]> | undefined, name: string): Promise<T[]> => {
    const records = table?.[name];
    if (records !== undefined) return records;
    throw dnsError(known.has(name) ? 'ENODATA' : 'ENOTFOUND');
  };
  return {
    resolveMx: (domain) => answer(zone.mx, domain),
    resolve4: (host) => answer(zone.a, host),
    resolve6: () => Promise.reject(dnsError('ENODATA')),
  };
}

export class FakeClock {
  ms = Date.UTC(2026, 0, 15, 12);
  readonly now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface TestMail extends RunningMail {
  readonly dataDir: string;
  readonly clock: FakeClock;
  /** Stops smtp-in and the consumers (each ends its batch first), leaving the ports open. */
  stop(): Promise<void>;
}

/** Mail over `dataDir` (new by default); consumers are driven by `settle()`. */
export async function startTestMail(
  t: Test,
  options: {
    env?: Record<string, string>;
    resolver?: MailResolver;
    dataDir?: string;
    clock?: FakeClock;
    extra?: Partial<StartMailOptions>;
  } = {},
): Promise<TestMail> {
  const dataDir = options.dataDir ?? tempDir(t);
  const clock = options.clock ?? new FakeClock();
  const config = readMailConfig({
    MAIL_DOMAIN: 'tessera.local,example.org',
    SMTP_PORT: '0',
    MAIL_RETRY_BASE_MS: '1000',
    MAIL_RETRY_MAX_MS: '8000',
    MAIL_GIVE_UP_AFTER_MS: '60000',
    ...options.env,
  });
  const ports = openEmbeddedMail({ dataDir, now: clock.now, synchronous: 'normal' });
  // No sender domain in the tests publishes SPF/DKIM/DMARC records.
  const verifySender = createMailauthVerifier(async () => {
    throw dnsError('ENOTFOUND');
  });
  const mail = await startMail({
    config,
    ports,
    resolver: options.resolver ?? stubResolver({}),
    verifySender,
    consumers: false,
    now: clock.now,
    ...options.extra,
  });
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => (stopped ??= mail.close());
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await stop();
    await ports.close();
  };
  t.teardown(close);
  return { ...mail, dataDir, clock, stop, close };
}

/** DNS that always fails temporarily: remote mail stays queued (no bounce within the give-up age). */
export const servfail: MailResolver = {
  resolveMx: () => Promise.reject(dnsError('ESERVFAIL')),
  resolve4: () => Promise.reject(dnsError('ESERVFAIL')),
  resolve6: () => Promise.reject(dnsError('ESERVFAIL')),
};
