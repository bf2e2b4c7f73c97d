/**
 * The FIX 4.4 acceptor: a TCP listener whose connections each run a `FixSession` (the session
 * layer) and hand application messages to the `FixOrderGateway`. What one turn of the event loop
 * produces for a connection goes out at its end (frame-writer.ts), after the session's sequence numbers are
 * saved: a number that reached the wire is on disk (group commit, as the journal does).
 */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { Logger } from '@tessera/kit';
import type { EncodedBody } from './body-bytes.ts';
import { decode, FrameReader } from './codec.ts';
import { FrameWriter } from './frame-writer.ts';
import { FixOrderGateway, type FixVenue, type OrderSession } from './order-gateway.ts';
import { SentLog } from './sent-log.ts';
import { FixSession, type SessionAction } from './session.ts';
import type { SequenceStore } from './sqlite-sequence-store.ts';

export interface FixAcceptorOptions {
  readonly port: number;
  readonly host: string;
  /** Our CompID: a client's TargetCompID. */
  readonly compId: string;
  readonly venue: FixVenue;
  readonly store: SequenceStore;
  readonly authenticate: (senderCompId: string, password: string | undefined) => string | undefined;
  readonly logger: Logger;
  readonly now?: () => number;
  /** A connection that sends no Logon within this many ms is closed. */
  readonly logonTimeoutMs?: number;
}

/** Past this much unsent output a connection stops reading until the peer catches up. */
const HIGH_WATER = 8 * 1024 * 1024;

class Connection implements OrderSession {
  readonly session: FixSession;
  readonly openedAt: number;
  readonly #socket: Socket;
  readonly #acceptor: FixAcceptor;
  readonly #reader = new FrameReader();
  /** What is to be written, in order, until the end of this turn. */
  readonly #out = new FrameWriter();
  #flushing = false;
  #closing = false;
  #attached = false;

  constructor(socket: Socket, acceptor: FixAcceptor, session: FixSession, now: number) {
    this.#socket = socket;
    this.#acceptor = acceptor;
    this.session = session;
    this.openedAt = now;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.on('drain', () => socket.resume());
    socket.on('error', () => {});
    socket.on('close', () => this.#closed());
  }

  get account(): string {
    return this.session.account;
  }

  sendApp(msgType: string, body: string | EncodedBody): void {
    this.session.sendInto(this.#out, msgType, body, this.#acceptor.now());
    this.#scheduleFlush();
  }

  reject(refSeq: number, refMsgType: string, reason: number, text: string, refTag?: number): void {
    this.run(this.session.reject(refSeq, refMsgType, reason, text, this.#acceptor.now(), refTag));
  }

  run(actions: readonly SessionAction[]): void {
    for (const action of actions) {
      switch (action.kind) {
        case 'send':
          this.#out.raw(action.frame);
          this.#scheduleFlush();
          break;
        case 'logon':
          if (!this.#acceptor.logOn(this, action.senderCompId)) return;
          this.#attached = true;
          break;
        case 'app':
          this.#acceptor.gateway.receive(this, action.msgType, action.message, action.seq);
          break;
        case 'close':
          this.#acceptor.logger.info(
            { sender: this.session.senderCompId, reason: action.reason },
            'FIX session closed',
          );
          this.close();
          break;
      }
    }
  }

  /** Writes what is queued, then ends the connection; the SenderCompID may log on again at once. */
  close(): void {
    if (this.#closing) return;
    this.#closing = true;
    this.#flush();
    this.#detach();
    this.#socket.end();
  }

  destroy(): void {
    this.#socket.destroy();
  }

  #onData(chunk: Buffer): void {
    let frames: string[];
    try {
      frames = this.#reader.push(chunk.toString('latin1'));
    } catch {
      this.destroy();
      return;
    }
    const now = this.#acceptor.now();
    for (const frame of frames) {
      if (this.#closing) return;
      const message = decode(frame);
      // FIX: a garbled message is dropped without a reject, and its sequence number is not used.
      if ('garbled' in message) {
        this.#acceptor.logger.debug({ reason: message.garbled }, 'garbled FIX frame dropped');
        continue;
      }
      this.run(this.session.receive(message, now));
    }
  }

  #scheduleFlush(): void {
    if (this.#flushing) return;
    this.#flushing = true;
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    this.#flushing = false;
    if (this.#out.empty || this.#socket.destroyed) return;
    if (this.session.senderCompId !== '') {
      this.#acceptor.store.save(this.session.senderCompId, this.session.sequences());
    }
    for (const bytes of this.#out.take()) this.#socket.write(bytes);
    if (this.#socket.writableLength > HIGH_WATER) this.#socket.pause();
  }

  #closed(): void {
    this.#detach();
    this.#acceptor.forget(this);
  }

  /** Saves the numbers (even when nothing was left to write) and leaves the logged-on sessions. */
  #detach(): void {
    if (!this.#attached) return;
    this.#attached = false;
    this.#acceptor.store.save(this.session.senderCompId, this.session.sequences());
    this.#acceptor.logOff(this);
  }
}

export class FixAcceptor {
  readonly gateway: FixOrderGateway;
  readonly store: SequenceStore;
  readonly logger: Logger;
  readonly now: () => number;
  readonly #options: FixAcceptorOptions;
  readonly #server: Server;
  readonly #connections = new Set<Connection>();
  /** The logged-on connection of each SenderCompID (one at a time). */
  readonly #bySender = new Map<string, Connection>();
  readonly #timer: NodeJS.Timeout;
  /** Recent application messages per SenderCompID, for resends across reconnects (this process only). */
  readonly #sentBySender = new Map<string, SentLog>();

  private constructor(options: FixAcceptorOptions, server: Server) {
    this.#options = options;
    this.#server = server;
    this.store = options.store;
    this.logger = options.logger;
    this.now = options.now ?? Date.now;
    this.gateway = new FixOrderGateway(options.venue, this.now);
    this.#timer = setInterval(() => this.#tick(), 1000);
    this.#timer.unref();
    server.on('connection', (socket) => this.#accept(socket));
  }

  static async start(options: FixAcceptorOptions): Promise<FixAcceptor> {
    const server = createServer();
    const acceptor = new FixAcceptor(options, server);
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port, options.host, () => resolve());
      });
    } catch (error) {
      acceptor.gateway.close();
      clearInterval(acceptor.#timer);
      throw error;
    }
    return acceptor;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  /** Takes a session that logged on; refuses a second one of the same SenderCompID. */
  logOn(connection: Connection, senderCompId: string): boolean {
    if (this.#bySender.has(senderCompId)) {
      this.logger.warn({ sender: senderCompId }, 'FIX Logon refused: that SenderCompID is logged on already');
      connection.destroy();
      return false;
    }
    this.#bySender.set(senderCompId, connection);
    this.gateway.attach(connection);
    this.logger.info({ sender: senderCompId, account: connection.account }, 'FIX session logged on');
    return true;
  }

  logOff(connection: Connection): void {
    if (this.#bySender.get(connection.session.senderCompId) === connection) {
      this.#bySender.delete(connection.session.senderCompId);
    }
    this.gateway.detach(connection);
  }

  forget(connection: Connection): void {
    this.#connections.delete(connection);
  }

  /** Logs every session out, waits a little for the answers, then closes. */
  async close(graceMs = 1000): Promise<void> {
    clearInterval(this.#timer);
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const connection of this.#connections)
      connection.run(connection.session.logout('the exchange is closing', this.now()));
    const deadline = Date.now() + graceMs;
    while (this.#connections.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    for (const connection of this.#connections) connection.destroy();
    await closed;
    this.gateway.close();
  }

  #accept(socket: Socket): void {
    const session = new FixSession({
      compId: this.#options.compId,
      directory: {
        // A SenderCompID already logged on is refused before its numbers are even read.
        authenticate: (sender, password) =>
          this.#bySender.has(sender) ? undefined : this.#options.authenticate(sender, password),
        sequences: (sender) => this.store.load(sender),
        sentMessages: (sender) => {
          let sent = this.#sentBySender.get(sender);
          if (sent === undefined) this.#sentBySender.set(sender, (sent = new SentLog()));
          return sent;
        },
      },
    });
    this.#connections.add(new Connection(socket, this, session, this.now()));
  }

  #tick(): void {
    const now = this.now();
    const logonTimeout = this.#options.logonTimeoutMs ?? 10_000;
    for (const connection of this.#connections) {
      if (connection.session.state === 'awaiting-logon' && now - connection.openedAt > logonTimeout) {
        connection.destroy();
      } else connection.run(connection.session.tick(now));
    }
  }
}
