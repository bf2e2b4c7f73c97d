// The platform's public surface, listed name by name.
export { main } from './cli.ts';
export { startPlatform, startRole, type StartOptions } from './platform.ts';
export { SERVICE_NAMES, loadService, loadServices } from './services.ts';
export { VERSION } from './version.ts';
