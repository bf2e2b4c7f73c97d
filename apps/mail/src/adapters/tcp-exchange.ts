/**
 * One request and its whole answer over a fresh TCP connection, as spamd and clamd speak: the
 * client writes, half-closes, and reads until the server closes. Bounded by a timeout.
 */
import { connect } from 'node:net';

export interface TcpTarget {
  readonly host: string;
  readonly port: number;
}

/** `scheme://host:port` (the SPAMD_URL / CLAMD_URL form) as a target. */
export function tcpTarget(url: string): TcpTarget {
  const parsed = new URL(url);
  const port = Number(parsed.port);
  if (parsed.hostname === '' || !Number.isInteger(port) || port <= 0) {
    throw new Error(`${url} needs a host and a port`);
  }
  // URL keeps the brackets of an IPv6 literal; net.connect wants the bare address.
  return { host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), port };
}

export function tcpExchange(
  target: TcpTarget,
  write: (socket: { write(chunk: Buffer | string): boolean }) => void,
  timeoutMs: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: target.host, port: target.port });
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(new Error(`no answer from ${target.host}:${target.port} within ${timeoutMs} ms`)),
    );
    socket.on('connect', () => {
      write(socket);
      socket.end();
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', (hadError) => {
      if (!hadError) resolve(Buffer.concat(chunks));
    });
  });
}
