/**
 * The delivery policy of smtp-out: where to deliver (RFC 5321 §5.1), what a failure means,
 * and when to try again (exponential back-off) or give up and bounce.
 */

export interface MxRecord {
  readonly exchange: string;
  readonly priority: number;
}

/** What the DNS said about a domain's MX records. */
export type MxAnswer =
  | { readonly kind: 'records'; readonly records: readonly MxRecord[] }
  /** The domain exists but has no MX record. */
  | { readonly kind: 'nodata' }
  | { readonly kind: 'nxdomain' }
  /** SERVFAIL, timeout: try again later. */
  | { readonly kind: 'error'; readonly reason: string };

export type Route =
  | { readonly kind: 'hosts'; readonly hosts: readonly string[] }
  | { readonly kind: 'permanent'; readonly status: string; readonly reason: string }
  | { readonly kind: 'temporary'; readonly reason: string };

/**
 * MX hosts by preference (lowest first; equal preferences keep the DNS order). No MX record
 * means the domain itself is the implicit MX, to be reached through its A/AAAA records. A
 * null MX (RFC 7505: one record, exchange ".") means the domain accepts no mail.
 */
export function routeFor(domain: string, answer: MxAnswer): Route {
  switch (answer.kind) {
    case 'nxdomain':
      return { kind: 'permanent', status: '5.1.2', reason: `the domain ${domain} does not exist` };
    case 'error':
      return { kind: 'temporary', reason: `MX lookup for ${domain} failed: ${answer.reason}` };
    case 'nodata':
      return { kind: 'hosts', hosts: [domain] };
    case 'records': {
      const records = answer.records.map((r) => ({ ...r, exchange: r.exchange.replace(/\.$/, '') }));
      if (records.some((r) => r.exchange === '')) {
        return {
          kind: 'permanent',
          status: '5.1.10',
          reason: `${domain} publishes a null MX: it accepts no mail`,
        };
      }
      if (records.length === 0) return { kind: 'hosts', hosts: [domain] };
      const sorted = records
        .map((r, i) => ({ ...r, i }))
        .sort((a, b) => a.priority - b.priority || a.i - b.i);
      return { kind: 'hosts', hosts: [...new Set(sorted.map((r) => r.exchange.toLowerCase()))] };
    }
  }
}

/** How an SMTP failure is treated: a 5xx reply is final, anything else (4xx, network) is retried. */
export function isPermanentFailure(failure: { readonly responseCode?: number }): boolean {
  return failure.responseCode !== undefined && failure.responseCode >= 500 && failure.responseCode < 600;
}

export interface RetryPolicy {
  readonly baseMs: number;
  readonly maxMs: number;
  readonly giveUpAfterMs: number;
}

export type NextStep = { readonly kind: 'retry'; readonly at: number } | { readonly kind: 'give-up' };

/**
 * After the `attempts`-th failed attempt: wait base·2^(attempts-1), at most maxMs; give up when
 * the next attempt would come later than giveUpAfterMs after the message was queued.
 */
export function nextAttempt(attempts: number, queuedAt: number, now: number, policy: RetryPolicy): NextStep {
  const exponent = Math.min(Math.max(attempts - 1, 0), 52);
  const delay = Math.min(policy.baseMs * 2 ** exponent, policy.maxMs);
  const at = now + delay;
  return at - queuedAt > policy.giveUpAfterMs ? { kind: 'give-up' } : { kind: 'retry', at };
}
