/**
 * The exchange's WebSocket (docs/exchange-websocket.md) as a fastify plugin: market data per
 * symbol for anyone, the account's own order and execution events for a `trade` token. The token
 * comes in the Authorization header or, from browsers, as a `bearer.<jwt>` subprotocol next to
 * `tessera.v1` (never in the URL, which logs keep). A bad token refuses the upgrade (401/403).
 */
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import { bearerToken, kitErrors, repeatsAuthorization, type Principal } from '@tessera/kit';
import { parseFeedRequest } from '../core/feed-requests.ts';
import type { ExchangeService } from '../service.ts';
import type { FeedHub } from './feed-hub.ts';

export interface FeedRouteOptions {
  readonly service: ExchangeService;
  /** The fan-out (built over the same service: `new FeedHub(maxBuffered, service.feedSnapshot)`). */
  readonly hub: FeedHub;
}

export const FEED_PATH = '/v1/exchange/ws';
const TOKEN_PROTOCOL = 'bearer.';
const SCOPE = 'trade';

declare module 'fastify' {
  interface FastifyRequest {
    /** The feed's caller, when it presented a token. */
    feedPrincipal?: Principal;
  }
}

/**
 * The bearer token of the upgrade request: header first, then the subprotocol. An Authorization
 * header that is repeated or not a bearer token is refused, as the kit's auth hook refuses it,
 * rather than read as "no token": the client would take market data for its account's feed.
 */
function tokenOf(request: FastifyRequest): string | undefined {
  if (repeatsAuthorization(request.raw.rawHeaders)) {
    throw kitErrors.KIT_MALFORMED_REQUEST('the request has more than one Authorization header');
  }
  const { authorization } = request.headers;
  if (authorization !== undefined) {
    const token = bearerToken(authorization);
    if (token === undefined)
      throw kitErrors.KIT_UNAUTHORIZED('the Authorization header is not a bearer token');
    return token;
  }
  const protocols = request.headers['sec-websocket-protocol'] ?? '';
  for (const p of protocols.split(',')) {
    const name = p.trim();
    if (name.startsWith(TOKEN_PROTOCOL)) return name.slice(TOKEN_PROTOCOL.length);
  }
  return undefined;
}

export const feedRoute: FastifyPluginCallback<FeedRouteOptions> = (app, { service, hub }, done) => {
  // @fastify/websocket is the kit's (registered once per app): it answers with `tessera.v1` when
  // offered and never echoes the token offered beside it.
  const symbols = new Set(service.symbols());
  const stop = service.subscribe((events) => hub.publish(service.feedUpdates(events)));
  app.addHook('onClose', (_app, done) => {
    stop();
    done();
  });

  app.get(
    FEED_PATH,
    {
      websocket: true,
      schema: { hide: true },
      onRequest: async (request) => {
        const token = tokenOf(request);
        if (token === undefined) return;
        const principal = await app.authenticator.verify(token);
        if (!principal.scopes.has(SCOPE))
          throw kitErrors.KIT_FORBIDDEN(`account events need the "${SCOPE}" scope`, {
            required_scope: SCOPE,
          });
        request.feedPrincipal = principal;
      },
    },
    (socket, request) => {
      const account = request.feedPrincipal?.sub;
      const subscriber = hub.add(socket, account);
      socket.on('close', () => hub.remove(subscriber));
      socket.on('message', (data: Buffer, isBinary: boolean) => {
        const parsed = parseFeedRequest(isBinary ? '' : data.toString('utf8'), symbols);
        if ('type' in parsed) return hub.reply(subscriber, parsed);
        if (parsed.op === 'ping') return hub.reply(subscriber, { type: 'pong' });
        if (parsed.op === 'subscribe') return hub.subscribe(subscriber, parsed.symbol);
        hub.unsubscribe(subscriber, parsed.symbol);
        hub.reply(subscriber, { type: 'unsubscribed', symbol: parsed.symbol });
      });
      hub.reply(subscriber, { type: 'welcome', v: 1, account: account ?? null, symbols: [...symbols] });
    },
  );
  done();
};
