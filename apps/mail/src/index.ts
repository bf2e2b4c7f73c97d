// The public surface of @tessera/mail, listed name by name.
export { checkMailSettings, mailConfig, mailSettings, readMailConfig } from './config.ts';
export type { MailConfig, MailSettings } from './config.ts';
export { mailErrors } from './errors.ts';
export { startMail } from './mail.ts';
export type { RunningMail, StartMailOptions } from './mail.ts';
export { MailService } from './service.ts';
export { mailRoutes } from './http/routes.ts';
export type { MailRoutesOptions } from './http/routes.ts';
export { registerQueueMetrics } from './queue-metrics.ts';
export type { MailServiceOptions, SendInput } from './service.ts';
export { openEmbeddedMail } from './adapters/embedded/open-embedded.ts';
export type { EmbeddedMailOptions } from './adapters/embedded/open-embedded.ts';
export type { MailPorts } from './ports.ts';
export { mail, mailDescriptor, type MailInstance } from './descriptor.ts';
