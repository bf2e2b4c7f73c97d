/**
 * SpamAssassin's spamd over TCP (SPAMD_URL), the spamc protocol (SPAMC/1.5, SYMBOLS): spamd
 * scores the raw message with its own rules and threshold and names the rules that hit. The
 * protocol is a few lines; the npm clients of it are unmaintained, so this is our thin adapter.
 */
import { tcpExchange, tcpTarget } from './tcp-exchange.ts';

export interface SpamVerdict {
  readonly spam: boolean;
  readonly score: number;
  readonly threshold: number;
  /** The rules that hit (GTUBE, MISSING_DATE, …). */
  readonly rules: readonly string[];
}

/** An external spam filter; the built-in scorer is used alone when there is none. */
export interface SpamChecker {
  check(raw: Buffer): Promise<SpamVerdict>;
}

const RESPONSE = /^SPAMD\/\d+\.\d+ (\d+) (\S+)/;
const SPAM_HEADER = /^Spam: *(True|False|Yes|No) *; *(-?[\d.]+) *\/ *(-?[\d.]+)/im;

/** Parses spamd's answer to SYMBOLS; throws on a protocol error (spamd's EX_… code). */
export function parseSpamdReply(reply: string): SpamVerdict {
  const status = RESPONSE.exec(reply);
  if (status === null)
    throw new Error(`spamd answered something else: ${JSON.stringify(reply.slice(0, 80))}`);
  if (status[1] !== '0') throw new Error(`spamd refused the message: ${status[1] ?? ''} ${status[2] ?? ''}`);
  const header = SPAM_HEADER.exec(reply);
  if (header === null) throw new Error('spamd answered without a Spam header');
  const bodyAt = reply.indexOf('\r\n\r\n');
  const body = bodyAt < 0 ? '' : reply.slice(bodyAt + 4).trim();
  const score = Number(header[2]);
  const threshold = Number(header[3]);
  // The header's numbers go into the message's spam_score: never NaN ("1.2.3" matches its pattern).
  if (!Number.isFinite(score) || !Number.isFinite(threshold))
    throw new Error(`spamd answered a Spam header without numbers: ${JSON.stringify(header[0])}`);
  return {
    spam: header[1] === 'True' || header[1] === 'Yes',
    score,
    threshold,
    rules: body === '' ? [] : body.split(',').map((rule) => rule.trim()),
  };
}

export function createSpamdChecker(url: string, options: { timeoutMs?: number } = {}): SpamChecker {
  const target = tcpTarget(url);
  const timeoutMs = options.timeoutMs ?? 30_000;
  return {
    async check(raw) {
      const reply = await tcpExchange(
        target,
        (socket) => {
          socket.write(`SYMBOLS SPAMC/1.5\r\nContent-length: ${raw.length}\r\n\r\n`);
          socket.write(raw);
        },
        timeoutMs,
      );
      return parseSpamdReply(reply.toString('latin1'));
    },
  };
}
