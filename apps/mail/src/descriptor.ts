/**
 * Mail as the platform runs it: settings, errors, routes and roles in one descriptor, and the
 * composition root (embedded ports under DATA_DIR/mail; Cassandra, MinIO, Elasticsearch and
 * NATS come with the distributed mail).
 *
 * The roles share nothing but the ports, so each can run as a process of its own over the same
 * stores (the embedded ones are SQLite files with a durable queue between the roles). For now the
 * consumers start together: a process with any of worker, smtp-out or indexer runs all three.
 */
import { defineService, type ServiceDescriptor } from '@tessera/kit';
import type { FastifyPluginAsync } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { openEmbeddedMail } from './adapters/embedded/open-embedded.ts';
import { checkMailSettings, mailConfig, mailSettings, type MailSettings } from './config.ts';
import { mailErrors } from './errors.ts';
import { mailRoutes } from './http/routes.ts';
import { startMail, type RunningMail } from './mail.ts';
import { registerQueueMetrics } from './queue-metrics.ts';

export type MailInstance = RunningMail;

const CONSUMER_ROLES = ['worker', 'smtp-out', 'indexer'];

const routes: FastifyPluginAsync<{ config: MailSettings; instance: MailInstance }> = async (
  app,
  { config, instance },
) => {
  await app.register(mailRoutes, {
    service: instance.service,
    sendLimitPerMinute: config.MAIL_SEND_LIMIT_PER_MINUTE,
    // Attachments arrive base64-encoded in the JSON body: 4/3 of the message, plus the fields.
    sendBodyLimit: Math.ceil((config.MAIL_MAX_MESSAGE_BYTES * 4) / 3) + 64 * 1024,
  });
};

export const mailDescriptor: ServiceDescriptor<typeof mailSettings, MailInstance> = {
  name: 'mail',
  description: 'Mail: REST, SMTP in and out, spam check, search, threads',
  settings: mailSettings,
  check: checkMailSettings,
  errors: mailErrors,
  roles: {
    api: { description: 'the REST API (folders, messages, threads, search, long poll)', servesApi: true },
    'smtp-in': { description: 'inbound SMTP on SMTP_PORT: local recipients only', servesApi: false },
    worker: { description: 'parses, checks and files inbound mail; bounces', servesApi: false },
    'smtp-out': { description: 'delivers outbound mail by MX with back-off', servesApi: false },
    indexer: { description: 'keeps the search index up to date', servesApi: false },
  },
  async open(settings, context) {
    const location = {
      dataDir: context.platform.DATA_DIR,
      synchronous: context.platform.DATA_FSYNC ? ('full' as const) : ('normal' as const),
    };
    // SQLite's checkpoints on threads of their own, never inside a commit of SMTP's or the consumer's.
    const ports = openEmbeddedMail({ ...location, now: context.now, walCheckpoints: 'own' });
    try {
      const running = await startMail({
        config: mailConfig(settings),
        ports,
        now: context.now,
        smtpIn: context.roles.includes('smtp-in'),
        consumers: context.roles.some((role) => CONSUMER_ROLES.includes(role)),
        // The worker and indexer beside the thread that serves SMTP and the API, when asked.
        ...(settings.MAIL_CONSUMER_THREAD
          ? { consumerThread: { ...location, walRestarts: ports.walRestarts } }
          : {}),
        onError: (error) => context.logger.error({ err: error }, 'mail job failed'),
      });
      return {
        ...running,
        async close() {
          await running.close();
          await ports.close();
        },
      };
    } catch (error) {
      await ports.close();
      throw error;
    }
  },
  routes: fastifyPlugin(routes, { name: 'mail', encapsulate: true, fastify: '5.x' }),
  metrics: (instance, registry) => registerQueueMetrics(registry, instance.ports.queue),
  banner: (settings) => [
    `Mail: SMTP on ${settings.SMTP_HOST}:${settings.SMTP_PORT} for ${settings.MAIL_DOMAIN}; a mailbox is <token subject>@${settings.MAIL_DOMAIN.split(',')[0]} (scope mail)`,
  ],
  // The page at /mail/ (apps/mail/web), served where the API is.
  pages: { prefix: '/mail/', root: new URL('../web/', import.meta.url) },
};

export const mail = defineService(mailDescriptor);
