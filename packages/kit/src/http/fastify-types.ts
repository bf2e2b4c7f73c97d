/** What the kit adds to fastify's types; imported for its side effect on type checking. */
// The plugins' own augmentations (`config.rateLimit`, `schema.tags`/`hide`, `websocket: true`) must reach services
// that only import the kit, including through the emitted .d.ts files.
/// <reference types="@fastify/rate-limit" preserve="true" />
/// <reference types="@fastify/swagger" preserve="true" />
/// <reference types="@fastify/websocket" preserve="true" />
import type { Registry } from 'prom-client';
import type { Authenticator, Principal } from '../auth.ts';
import type { FastAnswer, FastWrite, PublicFastAnswer } from './fast-route-types.ts';
import type { TraceScope } from '../trace-scope.ts';

/**
 * A readiness check: true (ready), false (not ready), or `{ degraded }`: ready, but a dependency
 * is down and some answers fall back (named in /readyz's body, for an operator to read).
 */
export type ReadinessResult = boolean | { readonly degraded: string };
export type ReadinessCheck = () => ReadinessResult | Promise<ReadinessResult>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the kit's auth hook on routes with `config.auth`. */
    principal?: Principal;
    /** Set by the telemetry hooks when tracing is on: read it through `traceOf(request)`. */
    trace?: TraceScope;
  }
  interface FastifyContextConfig {
    /**
     * Requires a bearer token carrying this scope. `webSocket`: on a WebSocket upgrade the token
     * may also come as a `bearer.<token>` subprotocol (never in the URL). `optional`: a request
     * that brings no token at all passes without a principal (public data, more with a token); one
     * that brings a token is checked, and its failures counted, as on any other route.
     */
    auth?: { scope: string; webSocket?: boolean; optional?: boolean };
  }
  interface FastifyInstance {
    /** The app's own Prometheus registry: pass `registers: [app.metrics]` to new metrics. */
    metrics: Registry;
    /** /readyz answers 503 until every registered check returns true (or `{ degraded }`). */
    addReadinessCheck(name: string, check: ReadinessCheck): void;
    /** The app's bearer-token verifier, for routes that authenticate themselves (a WebSocket's subprotocol token). */
    authenticator: Authenticator;
    /**
     * Beside a GET route, an answer for its cheap common case that skips fastify's pipeline
     * (see http/fast-routes.ts); ignored where the app has rate limits, tracing or a debug log.
     */
    addFastAnswer(answer: FastAnswer): void;
    /** The same for a public GET route (one without `config.auth`, not even optional). */
    addPublicFastAnswer(answer: PublicFastAnswer): void;
    /** The same for a POST route's plain case (see http/fast-routes.ts). */
    addFastWrite(write: FastWrite): void;
  }
}
