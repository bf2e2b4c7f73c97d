/**
 * DNS for smtp-out: MX and address lookups through MAIL_DNS_SERVER (or the system's
 * servers), with node's answers mapped onto the delivery policy's terms.
 */
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { MxAnswer, MxRecord } from '../core/delivery.ts';

/** The lookups smtp-out makes; node's dns Resolver has this shape, tests pass a stub. */
export interface MailResolver {
  resolveMx(domain: string): Promise<MxRecord[]>;
  resolve4(host: string): Promise<string[]>;
  resolve6(host: string): Promise<string[]>;
}

function resolverFor(server: string | undefined): Resolver {
  const resolver = new Resolver({ timeout: 5000, tries: 2 });
  if (server !== undefined) resolver.setServers([server]);
  return resolver;
}

export function createResolver(server: string | undefined): MailResolver {
  return resolverFor(server);
}

/** mailauth's resolver shape (any record type), over the same server. */
export function createRecordResolver(
  server: string | undefined,
): (name: string, rrtype: string) => Promise<string[][] | string[]> {
  const resolver = resolverFor(server);
  return (name, rrtype) => resolver.resolve(name, rrtype) as Promise<string[][] | string[]>;
}

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

export async function lookupMx(resolver: MailResolver, domain: string): Promise<MxAnswer> {
  try {
    return { kind: 'records', records: await resolver.resolveMx(domain) };
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENODATA') return { kind: 'nodata' };
    if (code === 'ENOTFOUND') return { kind: 'nxdomain' };
    return { kind: 'error', reason: code ?? String(error) };
  }
}

/** A host's addresses, IPv4 first; an IP literal is its own address. Empty when it has none. */
export async function addressesOf(resolver: MailResolver, host: string): Promise<string[]> {
  if (isIP(host) !== 0) return [host];
  const settle = async (lookup: Promise<string[]>): Promise<string[]> => lookup.catch(() => []);
  const [v4, v6] = await Promise.all([settle(resolver.resolve4(host)), settle(resolver.resolve6(host))]);
  return [...v4, ...v6];
}
