// The exchange's public surface: what the platform's runners and CLI use, listed name by name.
export { exchange } from './descriptor.ts';
export { depositOffline } from './deposit-offline.ts';
