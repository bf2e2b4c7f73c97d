/**
 * ClamAV's clamd over TCP (CLAMD_URL): the raw message is streamed with INSTREAM (length-prefixed
 * chunks, a zero-length one to end) and clamd names the signature it found, if any.
 */
import { tcpExchange, tcpTarget } from './tcp-exchange.ts';

export type VirusVerdict =
  { readonly infected: false } | { readonly infected: true; readonly signature: string };

export interface VirusScanner {
  scan(raw: Buffer): Promise<VirusVerdict>;
}

// Below clamd's default StreamMaxLength chunking limits, and small enough to keep memory flat.
const CHUNK = 64 * 1024;

/** clamd's one-line answer: `stream: OK`, `stream: <signature> FOUND`, or `… ERROR`. */
export function parseClamdReply(reply: string): VirusVerdict {
  const line = reply.replace(/\0/g, '').trim();
  if (/^stream: OK$/.test(line)) return { infected: false };
  const found = /^stream: (.+) FOUND$/.exec(line);
  if (found?.[1] !== undefined) return { infected: true, signature: found[1] };
  throw new Error(`clamd could not scan the message: ${JSON.stringify(line.slice(0, 120))}`);
}

export function createClamdScanner(url: string, options: { timeoutMs?: number } = {}): VirusScanner {
  const target = tcpTarget(url);
  const timeoutMs = options.timeoutMs ?? 30_000;
  return {
    async scan(raw) {
      const reply = await tcpExchange(
        target,
        (socket) => {
          socket.write('zINSTREAM\0');
          for (let at = 0; at < raw.length; at += CHUNK) {
            const chunk = raw.subarray(at, at + CHUNK);
            const length = Buffer.alloc(4);
            length.writeUInt32BE(chunk.length);
            socket.write(length);
            socket.write(chunk);
          }
          socket.write(Buffer.alloc(4));
        },
        timeoutMs,
      );
      return parseClamdReply(reply.toString('utf8'));
    },
  };
}
