/**
 * What a service registers as fast routes (fast-routes.ts): answers for GETs, public or behind a
 * scope, and writes for POSTs; and what the plain-HTTP front (fast-front.ts) hands them and gets
 * back, a request it read itself and the answer to write.
 */
import type { Principal } from '../auth.ts';

export interface FastAnswer {
  /** The route pattern, for the request-duration metric (`/v1/scores/:user_id`). */
  readonly route: string;
  /** The scope the full route requires. */
  readonly scope: string;
  /**
   * The JSON body of a 200 for this request target, or undefined to let the full route answer.
   * A store that must be asked gives a promise of either: the request is then this answer's (no
   * later one is tried). A rejection with a ProblemError is answered as that problem; an undefined
   * or another rejection hands the request to the full route.
   */
  answer(url: string, principal: Principal): string | undefined | Promise<string | undefined>;
}

/**
 * A fast answer for a public route (no `auth` in its config: the full route reads no token, so
 * none is needed here, and any sent is ignored as the full route ignores it).
 */
export interface PublicFastAnswer {
  /** The route pattern, for the request-duration metric. */
  readonly route: string;
  /**
   * The JSON body of a 200 for this request target, or undefined to let the full route answer; a
   * promise of either as for FastAnswer (a body that may leave only later).
   */
  answer(url: string): string | undefined | Promise<string | undefined>;
}

/** What a fast write answers: a 200 and its JSON body (and headers such as Idempotent-Replayed). */
export interface FastReply {
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface FastWrite {
  /** The request target it takes, exactly (no query), and the route for the metric. */
  readonly route: string;
  /** The scope the full route requires. */
  readonly scope: string;
  /** Longer declared bodies take the full route (which enforces the app's own limit). */
  readonly maxBodyBytes: number;
  /**
   * The answer for a parsed JSON body, or undefined to let the full route validate and answer
   * it (nothing may have been done then). The body is JSON.parse's, without the full route's
   * prototype-poisoning check: take only the keys you know, and decline any other. A rejection is answered as the full route would: a
   * ProblemError as its problem, anything else as a logged 500.
   */
  write(body: unknown, principal: Principal): Promise<FastReply> | undefined;
  /**
   * Tried first, on the body's bytes as they came: the answer for a body it reads itself (the
   * plain case in its usual spelling, without JSON.parse's generic object), or undefined to hand
   * the body to JSON.parse and `write` (nothing may have been done then). Rejections as `write`'s.
   */
  writeBytes?(body: Buffer, principal: Principal): Promise<FastReply> | undefined;
}

/**
 * A request head the plain-HTTP front read off a connection itself (fast-front.ts), without
 * node:http's objects: its one Authorization header (the front hands repeats to node:http), its
 * content type and length as sent. A POST's whole body comes beside it.
 */
export interface PlainRequest {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  readonly contentLength: number | undefined;
}

/** An answer for the front to write: the status, its JSON (or problem) body and extra headers. */
export interface PlainAnswer {
  readonly status: number;
  readonly type: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>> | undefined;
}

/**
 * What the front writes: a string is the body of a plain 200 with a JSON body and no headers of
 * its own (a rank read, a score update: no object made for it), else the answer as it is.
 */
export type FrontAnswer = string | PlainAnswer;

export type ObserveRequest = (method: string, route: string, statusCode: number, seconds: number) => void;
