// Mail's public surface: what the platform's runners use, listed name by name.
export { mail } from './descriptor.ts';
