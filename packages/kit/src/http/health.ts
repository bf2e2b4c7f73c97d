/** Kubernetes probes: /healthz (the process answers) and /readyz (it can do useful work). */
import type { FastifyInstance } from 'fastify';
import { kitErrors } from '../errors.ts';
import type { ReadinessCheck } from './fastify-types.ts';

async function passes(check: ReadinessCheck): Promise<boolean> {
  try {
    return (await check()) === true;
  } catch {
    return false;
  }
}

export function installHealth(app: FastifyInstance): void {
  const checks = new Map<string, ReadinessCheck>();
  app.decorate('addReadinessCheck', (name: string, check: ReadinessCheck) => {
    checks.set(name, check);
  });

  app.get('/healthz', { schema: { hide: true } }, () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async () => {
    const entries = [...checks];
    const results = await Promise.all(entries.map(([, check]) => passes(check)));
    const failing = entries.filter((_, i) => !results[i]).map(([name]) => name);
    if (failing.length > 0) {
      throw kitErrors.KIT_NOT_READY(`not ready: ${failing.join(', ')}`, { failing });
    }
    return { status: 'ready' };
  });
}
