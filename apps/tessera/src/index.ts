export { main } from './cli.ts';
export { startPlatform, VERSION, type StartOptions } from './platform.ts';
