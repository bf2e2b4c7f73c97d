/** What every mail route shares: its tag, its scope, and the caller's user id. */
import type { FastifyRequest } from 'fastify';
import { kitErrors } from '@tessera/kit';

export const tags = ['mail'];
export const auth = { scope: 'mail' };

/** The token's subject: the only mailbox a request can reach. */
export function userOf(request: FastifyRequest): string {
  const sub = request.principal?.sub;
  if (sub === undefined) throw kitErrors.KIT_UNAUTHORIZED('missing bearer token');
  return sub;
}
