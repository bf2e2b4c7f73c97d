/**
 * A service's web pages: plain files (HTML, CSS, ES modules) served with @fastify/static under a
 * path prefix, every answer with a strict Content-Security-Policy. The pages call the same public
 * routes as any client, with the bearer token the sign-in page keeps in sessionStorage.
 */
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { fileURLToPath } from 'node:url';

/** Where a folder of pages is served: `prefix` starts and ends with '/', e.g. '/mail/'. */
export interface PageMount {
  readonly prefix: string;
  /** The folder (an absolute path or a file: URL, e.g. `new URL('../web/', import.meta.url)`). */
  readonly root: string | URL;
}

/**
 * No inline script or style and nothing from another origin. CSP Level 3 makes 'self' in
 * connect-src match the page's own host over ws: and wss: too, so the WebSocket streams need no
 * wider source (a bare `ws:` would allow every host). Images may be blob: (attachments) or data:.
 */
export const PAGES_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': PAGES_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  // The pages change with the platform's version; a reload after an upgrade must see them.
  'cache-control': 'no-cache',
};

export function isPagePrefix(prefix: string): boolean {
  return /^\/[a-z0-9-]+\/$/.test(prefix);
}

export async function installPages(app: FastifyInstance, pages: readonly PageMount[]): Promise<void> {
  let first = true;
  for (const { prefix, root } of pages) {
    if (!isPagePrefix(prefix)) throw new Error(`a page prefix is one lower-case path segment: "${prefix}"`);
    await app.register(fastifyStatic, {
      root: typeof root === 'string' ? root : fileURLToPath(root),
      prefix,
      // Only the first registration may decorate the reply (sendFile); the pages do not need it.
      decorateReply: first,
      // Files only: a folder never lists its contents, and dotfiles are not served.
      list: false,
      dotfiles: 'deny',
      setHeaders(reply) {
        reply.headers(PAGE_HEADERS);
      },
    });
    first = false;
    // '/mail' answers a redirect to '/mail/', whose index.html is the page.
    app.get(prefix.slice(0, -1), { schema: { hide: true } }, (_request, reply) =>
      reply.redirect(prefix, 301),
    );
  }
}
