// The exchange's public surface: what the platform's runners use, listed name by name.
export { exchange } from './descriptor.ts';
