import { mintToken } from '@tessera/kit';

/**
 * The Authorization header for a test client holding `scopes` (none: no header), each token minted
 * once: both the in-process and the process targets of the suites call through this.
 */
export function authHeaders(secret: string): (scopes?: readonly string[]) => Promise<Record<string, string>> {
  const tokens = new Map<string, string>();
  return async (scopes): Promise<Record<string, string>> => {
    if (scopes === undefined) return {};
    const key = scopes.join(' ');
    let token = tokens.get(key);
    if (token === undefined) {
      token = await mintToken({ secret, sub: 'test-client', scopes: [...scopes] });
      tokens.set(key, token);
    }
    return { authorization: `Bearer ${token}` };
  };
}
