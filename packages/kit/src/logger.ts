/**
 * One logger per process; fastify gets it as its `loggerInstance`. JSON lines wherever a machine
 * reads the output (a cluster's collector, a pipe, a file); readable lines at a terminal, where a
 * person reads it (`make run`). LOG_FORMAT overrides the choice.
 */
import { createRequire } from 'node:module';
import { pino } from 'pino';
import type { DestinationStream, Logger } from 'pino';
import type PinoPretty from 'pino-pretty';

export type { Logger };

export type LogFormat = 'auto' | 'json' | 'pretty';

/** Standard output is a terminal: someone is watching, so a banner and pretty logs are welcome. */
export const isInteractive: boolean = process.stdout.isTTY === true;

export interface LoggerOptions {
  level: string;
  name: string;
  /** Default 'auto': pretty when `isInteractive`, JSON otherwise. */
  format?: LogFormat;
  /** Default standard output. */
  destination?: DestinationStream;
}

export function createLogger(opts: LoggerOptions): Logger {
  const format = opts.format ?? 'auto';
  const pretty = format === 'pretty' || (format === 'auto' && isInteractive);
  const options = {
    name: opts.name,
    level: opts.level,
    // Bearer tokens must never reach the logs, even when a debug serializer includes headers.
    redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
  };
  if (!pretty) return opts.destination === undefined ? pino(options) : pino(options, opts.destination);
  // In-process and synchronous: at a terminal, readable order beats throughput. Loaded only here:
  // a process logging JSON (every pod) keeps pino-pretty's modules out of its heap.
  const { build: prettyStream } = loadPinoPretty();
  const stream = prettyStream({
    sync: true,
    colorize: opts.destination === undefined && isInteractive,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    destination: opts.destination ?? 1,
  });
  return pino(options, stream);
}

/** pino-pretty is CommonJS: required when first needed, so that createLogger stays synchronous. */
function loadPinoPretty(): typeof PinoPretty {
  return createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
}

/**
 * Prints a start banner (the URL, how to get a token, where the docs are) as plain lines set off
 * by blank ones: at a terminal it is what a newcomer reads first. Where no one is watching
 * (`isInteractive` false), log the same lines instead so they stay JSON.
 */
export function printBanner(lines: readonly string[], out: NodeJS.WritableStream = process.stdout): void {
  const bold = (s: string) => (out === process.stdout && isInteractive ? `\u001b[1m${s}\u001b[22m` : s);
  const [title, ...rest] = lines;
  if (title === undefined) return;
  out.write(`\n  ${bold(title)}\n${rest.map((line) => `  ${line}\n`).join('')}\n`);
}
