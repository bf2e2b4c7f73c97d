/**
 * Whether the NATS connection is up, from the client's own status events. While disconnected, the
 * client holds every request until it reconnects or the request times out, so a POST would wait
 * for NATS to come back; the win log asks this first and refuses at once instead (a coded 503 the
 * game server retries with the same match_id).
 */
import type { Status } from '@nats-io/transport-node';

/** What the win log asks before it starts an append. */
export interface ConnectionState {
  /** Why the connection is down, or undefined while it is up. */
  down(): string | undefined;
}

/** An append refused because the connection is down (an outage: see outages.ts). */
export class NatsDisconnectedError extends Error {
  override readonly name = 'NatsDisconnectedError';
}

export interface ConnectionWatchOptions {
  /** Called on every change: the reason when the connection goes down, undefined when it is back. */
  readonly onChange?: (down: string | undefined) => void;
}

export class NatsConnectionWatch implements ConnectionState {
  #down: string | undefined;
  readonly #onChange: (down: string | undefined) => void;

  /** `status`: the connection's status events (`nc.status()`), followed until they end. */
  constructor(status: AsyncIterable<Status>, options: ConnectionWatchOptions = {}) {
    this.#onChange = options.onChange ?? (() => {});
    // Should the client's status stream itself fail, the last state stands: an append that then
    // meets a dead connection still fails as an outage (outages.ts), only not at once.
    this.#follow(status).catch(() => {});
  }

  down(): string | undefined {
    return this.#down;
  }

  async #follow(status: AsyncIterable<Status>): Promise<void> {
    for await (const event of status) {
      switch (event.type) {
        case 'disconnect':
          this.#set(`disconnected from ${event.server}; reconnecting`);
          break;
        case 'staleConnection':
          this.#set('the server stopped answering pings; reconnecting');
          break;
        case 'reconnect':
          this.#set(undefined);
          break;
        case 'close':
          this.#set('the connection is closed');
          return;
        default:
          break;
      }
    }
  }

  #set(down: string | undefined): void {
    if (down === this.#down) return;
    this.#down = down;
    this.#onChange(down);
  }
}
