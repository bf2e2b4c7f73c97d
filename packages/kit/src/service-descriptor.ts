/**
 * A service, declared in one place: its settings, its error table, its HTTP routes as one named
 * fastify plugin, its roles and its readiness checks. `serve()` runs any set of services and
 * roles from their descriptors: every role of every service in one process (`tessera serve`), or
 * one role of one service (`tessera run <service> <role>`, one container per role).
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Registry } from 'prom-client';
import { parseConfig } from './config.ts';
import type { ConfigOf, PlatformConfig, Setting } from './config.ts';
import type { ErrorSpec } from './errors.ts';
import type { ReadinessCheck } from './http/fastify-types.ts';
import type { PageMount } from './http/pages.ts';
import type { Logger } from './logger.ts';
import type { Telemetry } from './telemetry.ts';

export type SettingsTable = Record<string, Setting<unknown>>;

/** What a service is given when it opens: the process's shared pieces. */
export interface ServiceContext {
  readonly logger: Logger;
  readonly telemetry: Telemetry | undefined;
  /** The platform's settings (DATA_DIR, DATA_FSYNC, …). */
  readonly platform: PlatformConfig;
  /** The clock (epoch ms); tests move it. */
  readonly now: () => number;
  /** The roles this process runs of this service. */
  readonly roles: readonly string[];
}

/** Stops what a role started (timers, consumers); the service's stores close after it. */
export type StopRole = () => Promise<void>;

export interface RoleDescriptor<Instance> {
  readonly description: string;
  /** Whether the role answers the service's HTTP API (every role answers probes and /metrics). */
  readonly servesApi: boolean;
  /** Starts the role's own work over the opened service. */
  start?(instance: Instance, context: ServiceContext): Promise<StopRole | undefined>;
}

/** What `open` returns: the service's ports and use cases, and how to close them. */
export interface OpenedService {
  close(): Promise<void>;
}

export interface RoutesOptions<Config, Instance> {
  readonly config: Config;
  readonly instance: Instance;
}

export interface ServiceDescriptor<S extends SettingsTable, Instance extends OpenedService> {
  /** The name in `tessera run <name> <role>`, logs and readiness checks. */
  readonly name: string;
  readonly description: string;
  /** The settings table: each key is an environment variable. */
  readonly settings: S;
  /** Checks across settings, after each parsed; one line per problem, naming the variable. */
  readonly check?: (config: ConfigOf<S>) => readonly string[];
  /** The service's coded errors (its `defineErrors` table), documented and drift-checked. */
  readonly errors: { readonly table: Readonly<Record<string, ErrorSpec>> };
  readonly roles: Readonly<Record<string, RoleDescriptor<Instance>>>;
  /** The composition root: chooses the adapters from the settings, opens them, wires the use cases. */
  open(config: ConfigOf<S>, context: ServiceContext): Promise<Instance>;
  /** The HTTP API as one named plugin (fastify-plugin's `name`, encapsulated). */
  readonly routes: FastifyPluginAsync<RoutesOptions<ConfigOf<S>, Instance>>;
  readiness?(instance: Instance): Readonly<Record<string, ReadinessCheck>>;
  /** Registers the service's own metrics on the app's registry. */
  metrics?(instance: Instance, registry: Registry): void;
  /** Lines for the start banner (what a newcomer should know: ports, modes, sample data). */
  banner?(config: ConfigOf<S>): readonly string[];
  /** The service's web pages, served wherever a role of the service answers its API. */
  readonly pages?: PageMount;
}

/** A service ready to be run, its types closed over: what runners loop over. */
export interface Service {
  readonly name: string;
  readonly description: string;
  readonly settings: SettingsTable;
  readonly errors: { readonly table: Readonly<Record<string, ErrorSpec>> };
  readonly roles: Readonly<Record<string, Pick<RoleDescriptor<never>, 'description' | 'servesApi'>>>;
  readonly pages?: PageMount;
  /** Reads the service's settings from `env`; problems are returned, not thrown. */
  configure(env: Readonly<Record<string, string | undefined>>): ConfiguredService;
}

export interface ConfiguredService {
  readonly problems: readonly string[];
  /** Opens the service and its roles; only valid when there are no problems. */
  start(context: ServiceContext): Promise<StartedService>;
}

/** A running service in a process, to be attached to its HTTP app. */
export interface StartedService {
  readonly name: string;
  /** The service's lines for the start banner. */
  readonly banner: readonly string[];
  /** Adds the routes (when a role of this process serves the API), readiness checks and metrics. */
  attach(app: FastifyInstance): Promise<void>;
  /** Stops the roles, then closes the stores. */
  close(): Promise<void>;
}

export function defineService<S extends SettingsTable, Instance extends OpenedService>(
  descriptor: ServiceDescriptor<S, Instance>,
): Service {
  return {
    name: descriptor.name,
    description: descriptor.description,
    settings: descriptor.settings,
    errors: descriptor.errors,
    roles: descriptor.roles,
    pages: descriptor.pages,
    configure(env) {
      const { values, problems } = parseConfig(descriptor.settings, env);
      const all = problems.length > 0 ? problems : (descriptor.check?.(values) ?? []);
      return { problems: all, start: (context) => startService(descriptor, values, context) };
    },
  };
}

async function startService<S extends SettingsTable, Instance extends OpenedService>(
  descriptor: ServiceDescriptor<S, Instance>,
  config: ConfigOf<S>,
  context: ServiceContext,
): Promise<StartedService> {
  const instance = await descriptor.open(config, context);
  const stops: StopRole[] = [];
  const close = async (): Promise<void> => {
    try {
      for (const stop of stops.reverse()) await stop();
    } finally {
      await instance.close();
    }
  };
  try {
    for (const role of context.roles) {
      const stop = await descriptor.roles[role]?.start?.(instance, context);
      if (stop !== undefined) stops.push(stop);
    }
  } catch (error) {
    await close();
    throw error;
  }
  const servesApi = context.roles.some((role) => descriptor.roles[role]?.servesApi === true);
  return {
    name: descriptor.name,
    banner: descriptor.banner?.(config) ?? [],
    async attach(app) {
      if (servesApi) await app.register(descriptor.routes, { config, instance });
      for (const [name, check] of Object.entries(descriptor.readiness?.(instance) ?? {})) {
        app.addReadinessCheck(`${descriptor.name}:${name}`, check);
      }
      descriptor.metrics?.(instance, app.metrics);
    },
    close,
  };
}
