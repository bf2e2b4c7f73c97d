/**
 * The exchange as the platform runs it: settings, errors, routes and roles in one descriptor, and
 * the composition root (the journal chosen by `adapters/select.ts`, the state restored from the
 * latest snapshot and the journal after it, the service facade the routes call).
 *
 * One role for now: `gateway` runs the whole trading flow in its process (order manager, risk,
 * wallet, sequencer and journal, engines, market data). The order manager, engines and market
 * data are separate modules with ports between them, so each becomes a role of its own when the
 * distributed exchange puts them on JetStream.
 */
import { defineService, type ServiceDescriptor } from '@tessera/kit';
import type { FastifyPluginAsync } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { selectAdapters } from './adapters/select.ts';
import { exchangeRules, exchangeSettings, type ExchangeConfig } from './config.ts';
import { exchangeErrors } from './errors.ts';
import { exchangeRoutes } from './http/routes.ts';
import { ExchangeService } from './service.ts';

export interface ExchangeInstance {
  readonly service: ExchangeService;
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
};

function describeHours({ EXCHANGE_HOURS: hours }: ExchangeConfig): string {
  if (hours.kind === 'always') return 'the session is always open (EXCHANGE_HOURS=always)';
  const hhmm = (m: number) =>
    `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return `the session is ${hhmm(hours.open)}-${hhmm(hours.close)} ${hours.timeZone} (EXCHANGE_HOURS; orders outside it are refused)`;
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
      });
      return { service, close: () => adapters.close() };
    } catch (error) {
      await adapters.close();
      throw error;
    }
  },
  routes: fastifyPlugin(routes, { name: 'exchange', encapsulate: true, fastify: '5.x' }),
  banner: (config) => [
    `Exchange: ${config.EXCHANGE_SYMBOLS.map((s) => s.symbol).join(', ')}; ${describeHours(config)}. Fund an account: POST /v1/accounts/{id}/deposits (scope admin)`,
  ],
  // The page at /exchange/ (apps/exchange/web), served where the API is.
  pages: { prefix: '/exchange/', root: new URL('../web/', import.meta.url) },
};

export const exchange = defineService(exchangeDescriptor);
