/**
 * Sender authentication of received mail (SPF, DKIM, DMARC; ARC is verified too) with
 * mailauth. The DNS resolver is injected so tests and MAIL_DNS_SERVER control every lookup.
 */
import { authenticate } from 'mailauth';
import type { AuthResults } from '../core/events.ts';

export type TxtResolver = (name: string, rrtype: string) => Promise<string[][] | string[]>;

export interface SenderContext {
  readonly ip: string;
  readonly helo: string;
  readonly mailFrom: string;
  /** Our host name, as written into Authentication-Results. */
  readonly mta: string;
}

export type SenderVerifier = (raw: Buffer, context: SenderContext) => Promise<AuthResults>;

interface ResultWithStatus {
  status?: { result?: string };
}

function resultOf(value: unknown): string {
  return (value as ResultWithStatus | undefined)?.status?.result ?? 'none';
}

export function createMailauthVerifier(resolver?: TxtResolver): SenderVerifier {
  return async (raw, context) => {
    const result = await authenticate(raw, {
      ip: context.ip,
      helo: context.helo,
      sender: context.mailFrom,
      mta: context.mta,
      disableBimi: true,
      ...(resolver === undefined ? {} : { resolver }),
    });
    const dkimResults = (result.dkim as { results?: ResultWithStatus[] } | undefined)?.results ?? [];
    const dkim = dkimResults.some((r) => r.status?.result === 'pass')
      ? 'pass'
      : (dkimResults[0]?.status?.result ?? 'none');
    return {
      spf: resultOf(result.spf),
      dkim,
      dmarc: resultOf(result.dmarc),
      header: result.headers.trim(),
    };
  };
}
