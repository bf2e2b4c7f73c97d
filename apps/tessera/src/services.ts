import type { Service } from '@tessera/kit';

/**
 * Every service of the platform by name, each imported only when asked for: `tessera serve` loads
 * them all, a role process (`tessera run leaderboard api`) its own service alone, without the
 * others' code and libraries, whose modules would lengthen each of its full garbage collections.
 */
const LOADERS: Readonly<Record<string, () => Promise<Service>>> = {
  leaderboard: async () => (await import('@tessera/leaderboard')).leaderboard,
  exchange: async () => (await import('@tessera/exchange')).exchange,
  mail: async () => (await import('@tessera/mail')).mail,
};

/** The services' names, in the order the embedded platform mounts them. */
export const SERVICE_NAMES: readonly string[] = Object.keys(LOADERS);

/** The service of that name, or undefined when there is none. */
export function loadService(name: string): Promise<Service | undefined> {
  return Object.hasOwn(LOADERS, name) ? LOADERS[name]!() : Promise.resolve(undefined);
}

/** Every service, for the embedded platform and the usage text. */
export function loadServices(): Promise<Service[]> {
  return Promise.all(SERVICE_NAMES.map((name) => LOADERS[name]!()));
}
