/**
 * The exchange as the platform runs it: settings, errors, routes and roles in one descriptor, and
 * the composition root (the journal chosen by `adapters/select.ts`, the state restored from the
 * latest snapshot and the journal after it, the service facade the routes call).
 *
 * One role for now: `gateway` runs the whole trading flow in its process (order manager, risk,
 * wallet, sequencer and journal, engines, market data) and opens the FIX acceptor. The order manager, engines and market
 * data are separate modules with ports between them, so each becomes a role of its own when the
 * distributed exchange puts them on JetStream.
 */
import { defineService, registerWalMetrics, type ServiceDescriptor } from '@tessera/kit';
import type { WalCheckpoints } from '@tessera/kit/sqlite';
import type { FastifyPluginAsync } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { selectAdapters } from './adapters/select.ts';
import { exchangeRules, exchangeSettings, type ExchangeConfig } from './config.ts';
import { exchangeErrors } from './errors.ts';
import { FeedHub } from './http/feed-hub.ts';
import { feedRoute } from './http/feed-route.ts';
import { reportRoutes } from './http/report-routes.ts';
import { exchangeRoutes } from './http/routes.ts';
import { startFixAcceptor } from './fix/role.ts';
import { ExchangeService } from './service.ts';

export interface ExchangeInstance {
  readonly service: ExchangeService;
  /** The settings, for the roles' own listeners (FIX). */
  readonly config: ExchangeConfig;
  /** How the journal's WAL checkpoints go (for /metrics). */
  readonly journalWal: () => WalCheckpoints;
  close(): Promise<void>;
}

const routes: FastifyPluginAsync<{ config: ExchangeConfig; instance: ExchangeInstance }> = async (
  app,
  { config, instance },
) => {
  await app.register(exchangeRoutes, {
    service: instance.service,
    tradeLimitPerMinute: config.EXCHANGE_TRADE_LIMIT_PER_MINUTE,
    readLimitPerMinute: config.EXCHANGE_READ_LIMIT_PER_MINUTE,
  });
  const { service } = instance;
  await app.register(reportRoutes, { service, limitPerMinute: config.EXCHANGE_TRADE_LIMIT_PER_MINUTE });
  const hub = new FeedHub(config.EXCHANGE_WS_MAX_BUFFERED, (symbol) => service.feedSnapshot(symbol));
  await app.register(feedRoute, { service, hub });
};

function describeHours({ EXCHANGE_HOURS: hours }: ExchangeConfig): string {
  if (hours.kind === 'always') return 'the session is always open (EXCHANGE_HOURS=always)';
  const hhmm = (m: number) =>
    `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return `the session is ${hhmm(hours.open)}-${hhmm(hours.close)} ${hours.timeZone} (EXCHANGE_HOURS; orders outside it are refused)`;
}

function describeFix(config: ExchangeConfig): string {
  const logons = config.FIX_CREDENTIALS.map((c) => `${c.senderCompId}→${c.account}`).join(', ');
  return `FIX 4.4 on port ${config.FIX_PORT}, TargetCompID ${config.FIX_COMP_ID}; ${
    logons === '' ? 'no FIX_CREDENTIALS set, so every Logon is refused' : `logons: ${logons}`
  }`;
}

export const exchangeDescriptor: ServiceDescriptor<typeof exchangeSettings, ExchangeInstance> = {
  name: 'exchange',
  description: 'Electronic stock exchange: limit orders, matching, wallets, market data',
  settings: exchangeSettings,
  errors: exchangeErrors,
  roles: {
    gateway: {
      description: 'REST trading and market data, with the whole trading flow in process (for now)',
      servesApi: true,
      start: startFixAcceptor,
    },
  },
  async open(config, context) {
    const adapters = selectAdapters(config, context.platform);
    try {
      const service = ExchangeService.open({
        rules: exchangeRules(config),
        journal: adapters.journal,
        now: context.now,
        snapshotEvery: config.EXCHANGE_SNAPSHOT_EVERY,
        onSnapshotFailed: (seq, error) =>
          context.logger.warn(
            { err: error, seq },
            'exchange snapshot failed; restarts replay from the previous one',
          ),
      });
      return { service, config, journalWal: adapters.journalWal, close: () => adapters.close() };
    } catch (error) {
      await adapters.close();
      throw error;
    }
  },
  routes: fastifyPlugin(routes, { name: 'exchange', encapsulate: true, fastify: '5.x' }),
  metrics: (instance, registry) => registerWalMetrics(registry, 'exchange/journal.db', instance.journalWal),
  banner: (config) => [
    `Exchange: ${config.EXCHANGE_SYMBOLS.map((s) => s.symbol).join(', ')}; ${describeHours(config)}. Fund an account: POST /v1/accounts/{id}/deposits (scope admin)`,
    describeFix(config),
  ],
  // The page at /exchange/ (apps/exchange/web), served where the API is.
  pages: { prefix: '/exchange/', root: new URL('../web/', import.meta.url) },
};

export const exchange = defineService(exchangeDescriptor);
