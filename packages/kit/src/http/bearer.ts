/**
 * Reading a bearer token off a request (RFC 6750 §2.1), shared by the auth hook and the fast
 * answers: the token of the one Authorization header, and whether a second one came along.
 */
const bearer = /^Bearer +(\S+) *$/i;

/** The token of `Authorization: Bearer <token>`, as the auth hook reads it. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return authorization === undefined ? undefined : bearer.exec(authorization)?.[1];
}

/**
 * Node keeps only the first of repeated Authorization headers in `headers`; a proxy or client
 * that adds a second one must not get "first one wins", so the raw list is counted.
 */
export function repeatsAuthorization(raw: readonly string[]): boolean {
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    // Allocation-free, the usual spellings first: this runs on every authenticated request.
    const isAuthorization =
      name === 'Authorization' ||
      name === 'authorization' ||
      (name.length === 13 && authorizationName.test(name));
    if (isAuthorization && ++seen > 1) return true;
  }
  return false;
}

const authorizationName = /^authorization$/i;
