/** Both ways an edge read is answered, as a client sees them (fast-order-reads, fast-book-reads tests). */
import type { FastifyInstance } from 'fastify';

/** What a client sees of an answer (the date header aside). */
export interface Answer {
  status: number;
  type: string | null;
  length: string | null;
  body: string;
}

export async function overSocket(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<Answer> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
  const body = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    length: res.headers.get('content-length'),
    body,
  };
}

/** The full route for the very same request: inject enters fastify and never passes the edge. */
export async function byFullRoute(
  app: FastifyInstance,
  path: string,
  headers: Record<string, string>,
): Promise<Answer> {
  const res = await app.inject({ method: 'GET', url: path, headers });
  const length = res.headers['content-length'];
  return {
    status: res.statusCode,
    type: String(res.headers['content-type']),
    length: length === undefined ? null : String(length),
    body: res.body,
  };
}
