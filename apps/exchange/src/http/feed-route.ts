/**
 * The exchange's WebSocket (docs/exchange-websocket.md) as a fastify plugin: market data per
 * symbol for anyone, the account's own order and execution events for a `trade` token. The token
 * comes in the Authorization header or, from browsers, as a `bearer.<jwt>` subprotocol next to
 * `tessera.v1` (never in the URL, which logs keep). A bad token refuses the upgrade (401/403), and
 * counts against the address like any failed authentication (the kit's auth hook).
 */
import type { FastifyPluginCallback } from 'fastify';
import { parseFeedRequest } from '../core/feed-requests.ts';
import type { ExchangeService } from '../service.ts';
import type { FeedHub } from './feed-hub.ts';

export interface FeedRouteOptions {
  readonly service: ExchangeService;
  /** The fan-out, over the same service (descriptor.ts builds it with `service.feedSnapshot`). */
  readonly hub: FeedHub;
}

export const FEED_PATH = '/v1/exchange/ws';
const SCOPE = 'trade';

export const feedRoute: FastifyPluginCallback<FeedRouteOptions> = (app, { service, hub }, done) => {
  // @fastify/websocket is the kit's (registered once per app): it answers with `tessera.v1` when
  // offered and never echoes the token offered beside it.
  const symbols = new Set(service.symbols());
  // Updates only for what has a subscriber; no events at all while nobody subscribes.
  const stop = service.subscribe(
    (batch) => hub.publish(service.feedUpdates(batch, hub)),
    () => hub.active,
  );
  app.addHook('onClose', (_app, done) => {
    stop();
    done();
  });

  app.get(
    FEED_PATH,
    {
      websocket: true,
      schema: { hide: true },
      // The kit's bearer check, optional: no token is market data only; a token is checked (and a
      // bad one counted against the address, as on every route) and must carry `trade`.
      config: { auth: { scope: SCOPE, webSocket: true, optional: true } },
    },
    (socket, request) => {
      const account = request.principal?.sub;
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
