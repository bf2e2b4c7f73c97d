import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createAuthenticator, mintToken } from '../../src/auth.ts';
import { createHttpApp } from '../../src/http/app.ts';
import type { HttpAppOptions } from '../../src/http/app.ts';
import { createLogger } from '../../src/logger.ts';

export const secret = 'test-secret-that-is-long-enough-0123456789';

export function token(scopes: readonly string[], sub = 'alice', ttlSeconds?: number): Promise<string> {
  return mintToken({ secret, sub, scopes, ttlSeconds });
}

/** An app with the kit's conventions, a silent logger and the test secret. */
export function testApp(overrides: Partial<HttpAppOptions> = {}): Promise<FastifyInstance> {
  return createHttpApp({
    name: 'kit-test',
    version: '1.2.3',
    description: 'kit test app',
    logger: createLogger({ level: 'silent', name: 'kit-test' }),
    authenticator: createAuthenticator({ secret }),
    ...overrides,
  });
}

export interface Problem {
  title: string;
  detail: string;
  status: number;
  code: string;
  [extra: string]: unknown;
}

/** Listens on 127.0.0.1 at a free port; the app is closed when the test ends. */
export async function listen(
  t: { teardown(fn: () => unknown): void },
  app: FastifyInstance,
): Promise<number> {
  t.teardown(() => app.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

export interface RawExchange {
  /** Everything the server sent. */
  readonly text: string;
  /** Milliseconds from connecting until the server closed the connection, if it did. */
  readonly closedAfterMs: number | undefined;
  /** Whether every chunk had been written when the exchange ended. */
  readonly sentAll: boolean;
}

/** What ends an exchange besides the server closing the connection (which always does). */
export type ExchangeEnd =
  /** `answers` complete responses arrived. */
  | { readonly answers: number }
  /** The server closed the connection. */
  | { readonly closed: true };

/** A guard for a server that never answers or closes, not a wait a test expects to reach. */
const capMs = 10_000;

/**
 * A raw TCP client: writes `chunks` (a number is a pause in ms, cut short when the exchange
 * ends), then waits for `end` and reports what came back.
 */
export function rawExchange(
  port: number,
  chunks: ReadonlyArray<string | number>,
  end: ExchangeEnd,
): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const started = Date.now();
    let text = '';
    let closedAfterMs: number | undefined;
    let sentAll = false;
    let stopped = false;
    let pause: { timer: NodeJS.Timeout; resume: () => void } | undefined;
    const finish = () => {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      if (pause !== undefined) {
        clearTimeout(pause.timer);
        pause.resume();
      }
      socket.destroy();
      resolve({ text, closedAfterMs, sentAll });
    };
    const timer = setTimeout(finish, capMs);
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => {
      text += data;
      if ('answers' in end && parseResponses(text).length >= end.answers) finish();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      closedAfterMs = Date.now() - started;
      finish();
    });
    const write = async () => {
      for (const chunk of chunks) {
        if (stopped || socket.destroyed) return;
        if (typeof chunk === 'number')
          await new Promise<void>((resume) => (pause = { timer: setTimeout(resume, chunk), resume }));
        else socket.write(chunk);
      }
      sentAll = !stopped;
    };
    socket.once('connect', () => void write());
  });
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Splits the complete HTTP/1.1 responses in `text` (bodies framed by Content-Length). */
export function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (rest.length < end + 4 + length) break;
    const body = rest.slice(end + 4, end + 4 + length);
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, body });
    rest = rest.slice(end + 4 + length);
  }
  return responses;
}
