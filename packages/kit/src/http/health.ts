/** Kubernetes probes: /healthz (the process answers) and /readyz (it can do useful work). */
import type { FastifyInstance } from 'fastify';
import { kitErrors } from '../errors.ts';
import type { ReadinessCheck, ReadinessResult } from './fastify-types.ts';

async function run(check: ReadinessCheck): Promise<ReadinessResult> {
  try {
    return await check();
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
    const results = await Promise.all(entries.map(([, check]) => run(check)));
    const failing = entries.filter((_, i) => results[i] === false).map(([name]) => name);
    if (failing.length > 0) {
      throw kitErrors.KIT_NOT_READY(`not ready: ${failing.join(', ')}`, { failing });
    }
    // Ready, but saying what works in a reduced way: `degraded` maps a check to what is down.
    const degraded: Record<string, string> = {};
    entries.forEach(([name], i) => {
      const result = results[i];
      if (typeof result === 'object') degraded[name] = result.degraded;
    });
    if (Object.keys(degraded).length > 0) return { status: 'degraded', degraded };
    return { status: 'ready' };
  });
}
