/**
 * Which methods each route path answers, so that a known path asked with another method gets
 * 405 Method Not Allowed with an `Allow` header (RFC 9110 §15.5.6) instead of a 404.
 */
import type { FastifyInstance } from 'fastify';

export type AllowedMethods = (path: string) => string[];

export function trackAllowedMethods(app: FastifyInstance): AllowedMethods {
  const routes: Array<{ pattern: RegExp; methods: Set<string> }> = [];
  app.addHook('onRoute', (route) => {
    const source = `^${route.url
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/')}/?$`;
    let entry = routes.find((r) => r.pattern.source === source);
    if (entry === undefined) {
      entry = { pattern: new RegExp(source), methods: new Set() };
      routes.push(entry);
    }
    for (const method of [route.method].flat()) entry.methods.add(method);
  });
  return (path) => {
    const methods = new Set<string>();
    for (const route of routes) if (route.pattern.test(path)) for (const m of route.methods) methods.add(m);
    return [...methods].sort();
  };
}
