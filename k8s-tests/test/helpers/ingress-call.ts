/** Requests through the cluster's ingress under a rule's Host header. */
import { request, type IncomingHttpHeaders } from 'node:http';

export interface Answer {
  status: number;
  body: string;
  headers: IncomingHttpHeaders;
}

export type Call = (token: string, path: string, body?: object) => Promise<Answer>;

/**
 * A request through the ingress with the rule's Host header and a bearer token (none when empty)
 * (node:http: fetch does not let a caller choose the Host header).
 */
export function ingressCall(ingressUrl: string, host: string): Call {
  return (token, path, body) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(
        `${ingressUrl}${path}`,
        {
          method: payload === undefined ? 'GET' : 'POST',
          headers: {
            host,
            ...(token === '' ? {} : { authorization: `Bearer ${token}` }),
            ...(payload === undefined
              ? {}
              : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          },
          timeout: 10_000,
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', reject);
      req.end(payload);
    });
  };
}
