/**
 * The registered fast answers and writes, and the rules that pick one for a request: a public
 * answer, or one whose scope a known bearer token has (a single Authorization header), or a write
 * for a plain JSON body within its limit (see fast-routes.ts).
 */
import type { Authenticator, Principal } from '../auth.ts';
import { bearerToken } from './bearer.ts';
import type { FastAnswer, FastReply, FastWrite, PublicFastAnswer } from './fast-route-types.ts';

/** A GET's fast answer: now, or later from a store (see FastAnswer). */
export interface FoundAnswer {
  readonly route: string;
  readonly body: string | Promise<string | undefined>;
}

const JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8']);

/** Authorization headers whose tokens are remembered (all forgotten at once past this). */
const MAX_REMEMBERED_TOKENS = 1024;
/**
 * Longer Authorization headers are read each time, here and by the front's connections: the
 * memory a client can make the server hold stays small.
 */
export const MAX_REMEMBERED_LENGTH = 4096;

/** Registered answers, tried in order on every GET, and writes by request target. */
export class FastRouteTable {
  readonly #answers: FastAnswer[] = [];
  readonly #publicAnswers: PublicFastAnswer[] = [];
  readonly #writes = new Map<string, FastWrite>();
  readonly #authenticator: Authenticator;
  /** Authorization headers seen lately and their bearer tokens (see principalOf). */
  readonly #tokens = new Map<string, string | undefined>();

  constructor(authenticator: Authenticator) {
    this.#authenticator = authenticator;
  }

  add(answer: FastAnswer): void {
    this.#answers.push(answer);
  }

  addPublic(answer: PublicFastAnswer): void {
    this.#publicAnswers.push(answer);
  }

  addWrite(write: FastWrite): void {
    this.#writes.set(write.route, write);
  }

  get hasAnswers(): boolean {
    return this.#answers.length > 0 || this.#publicAnswers.length > 0;
  }

  hasWrite(url: string): boolean {
    return this.#writes.has(url);
  }

  /** The first answer that takes this target: public ones first, then those of the token's scopes. */
  findGet(url: string, principalOf: () => Principal | undefined): FoundAnswer | undefined {
    for (const fast of this.#publicAnswers) {
      let body: string | undefined | Promise<string | undefined>;
      try {
        body = fast.answer(url);
      } catch {
        continue; // the full route meets the same failure and answers it
      }
      if (body !== undefined) return { route: fast.route, body };
    }
    if (this.#answers.length === 0) return undefined;
    const principal = principalOf();
    if (principal === undefined) return undefined;
    for (const fast of this.#answers) {
      if (!principal.scopes.has(fast.scope)) continue;
      let body: string | undefined | Promise<string | undefined>;
      try {
        body = fast.answer(url, principal);
      } catch {
        continue; // the full route meets the same failure and answers it
      }
      if (body !== undefined) return { route: fast.route, body };
    }
    return undefined;
  }

  /**
   * The fast write for a POST to `url` and the principal it runs as, when the request is the plain
   * case: a declared length within the write's limit, a plain JSON content type, one Authorization
   * header with a known token that has the write's scope. Otherwise the full route's.
   */
  writeFor(
    url: string,
    length: number | undefined,
    contentType: string | undefined,
    authorization: string | undefined,
    repeated: boolean,
  ): { write: FastWrite; principal: Principal } | undefined {
    const write = this.#writes.get(url);
    if (write === undefined || length === undefined || !(length > 0 && length <= write.maxBodyBytes))
      return undefined;
    const type = contentType?.toLowerCase();
    if (type === undefined || !JSON_TYPES.has(type)) return undefined;
    const principal = this.principalOf(authorization, repeated);
    if (principal === undefined || !principal.scopes.has(write.scope)) return undefined;
    return { write, principal };
  }

  principalOf(authorization: string | undefined, repeated: boolean): Principal | undefined {
    if (authorization === undefined || repeated) return undefined;
    // A client sends the same header with every call: its token is read off it once, and is then
    // the same string each time, whose hash the token cache does not compute again. (The front
    // gives a connection's repeated header as one string too: there this lookup hashes nothing.)
    let token = this.#tokens.get(authorization);
    if (token === undefined && !this.#tokens.has(authorization)) {
      token = bearerToken(authorization);
      if (authorization.length <= MAX_REMEMBERED_LENGTH) {
        if (this.#tokens.size >= MAX_REMEMBERED_TOKENS) this.#tokens.clear();
        this.#tokens.set(authorization, token);
      }
    }
    if (token === undefined) return undefined;
    return this.#authenticator.known?.(token);
  }
}

/**
 * The write's answer to `body` (its bytes read by `writeBytes`, else parsed for `write`), or
 * undefined when it is not JSON or the write declines it.
 */
export function tryWrite(
  write: FastWrite,
  body: Buffer,
  principal: Principal,
): Promise<FastReply> | undefined {
  try {
    const answer = write.writeBytes?.(body, principal);
    if (answer !== undefined) return answer;
  } catch (error) {
    return rejected(error);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined; // the full route answers what is wrong with it
  }
  try {
    return write.write(parsed, principal);
  } catch (error) {
    return rejected(error);
  }
}

function rejected(error: unknown): Promise<never> {
  return Promise.reject(error instanceof Error ? error : new Error(String(error)));
}
