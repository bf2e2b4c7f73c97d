// Mail's public surface: what the platform's runners use, listed name by name.
export { mail } from './descriptor.ts';
export { addMailUser, isAccountType } from './users.ts';
export type { AddedUser } from './users.ts';
