/**
 * A public fast answer is served to anyone, without a token: registering one for a GET route that
 * reads a token (`config.auth`, even `optional`) is a programming error, refused whichever of the
 * two comes first.
 */
import type { FastifyInstance } from 'fastify';

export type CheckPublicAnswer = (route: string) => void;

export function guardPublicAnswers(app: FastifyInstance): CheckPublicAnswer {
  const guarded = new Set<string>();
  const answered = new Set<string>();
  const refuse = (route: string): never => {
    throw new Error(`a public fast answer for ${route}, a route that reads a bearer token`);
  };
  app.addHook('onRoute', (route) => {
    if (route.config?.auth === undefined || ![route.method].flat().includes('GET')) return;
    if (answered.has(route.url)) refuse(route.url);
    guarded.add(route.url);
  });
  return (route) => {
    if (guarded.has(route)) refuse(route);
    answered.add(route);
  };
}
