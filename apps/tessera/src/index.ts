// The platform's public surface, listed name by name.
export { main } from './cli.ts';
export { startPlatform, startRole, type StartOptions } from './platform.ts';
export { SERVICES } from './services.ts';
export { VERSION } from './version.ts';
