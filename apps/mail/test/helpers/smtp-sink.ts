/** A remote MX for tests: an smtp-server that records what it accepts and answers as told. */
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface SinkDelivery {
  readonly mailFrom: string;
  readonly recipients: readonly string[];
  readonly raw: string;
}

export interface SmtpSink {
  readonly port: number;
  readonly deliveries: SinkDelivery[];
  /** RCPT TO commands seen, accepted or not. */
  readonly rcptAttempts: string[];
  close(): Promise<void>;
}

/** `reply(address, attempt)` returns an SMTP error reply for the recipient, or undefined to accept. */
export async function startSmtpSink(
  reply: (address: string, attempt: number) => { code: number; message: string } | undefined = () =>
    undefined,
): Promise<SmtpSink> {
  const deliveries: SinkDelivery[] = [];
  const rcptAttempts: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    onRcptTo(address, _session, callback) {
      rcptAttempts.push(address.address);
      const answer = reply(address.address, rcptAttempts.filter((a) => a === address.address).length);
      if (answer === undefined) callback();
      else callback(Object.assign(new Error(answer.message), { responseCode: answer.code }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        deliveries.push({
          mailFrom: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          recipients: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.server.address() as AddressInfo).port,
    deliveries,
    rcptAttempts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
