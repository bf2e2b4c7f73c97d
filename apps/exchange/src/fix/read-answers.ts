/**
 * The FIX gateway's answers read from the state (an OrderStatusRequest's, a resent order's, an
 * OrderCancelReject): taken at once, as a REST read is, and sent once every command they may show
 * is durable (`readsWait`), in order per session.
 */
import { ProblemError } from '@tessera/kit';
import type { FixVenue, OrderSession } from './gateway-ports.ts';
import { businessReject } from './reject-messages.ts';
import { BUSINESS_REJECT, MSG } from './tags.ts';

export class ReadAnswers {
  readonly #venue: FixVenue;
  /** Whether the session is still logged on (one gone meanwhile gets no answer). */
  readonly #attached: (session: OrderSession) => boolean;
  /** Per session, its last answer waiting to be sent. */
  readonly #answering = new Map<OrderSession, Promise<void>>();

  constructor(venue: FixVenue, attached: (session: OrderSession) => boolean) {
    this.#venue = venue;
    this.#attached = attached;
  }

  /**
   * Sends an answer read from the state now once every command it may show is durable, in order:
   * after the session's answers before it, and after the ExecutionReports of the batches applied
   * before it (the outbox's delivery of a batch waits on the batch's commit from its first command
   * on, before any read waits on it, so it runs first). A failed commit: a BusinessMessageReject
   * with EX_JOURNAL_FAILED instead, as REST answers a read then. A session gone meanwhile gets none.
   */
  send(session: OrderSession, refSeq: number, refMsgType: string, msgType: string, body: string): void {
    const wait = this.#venue.readsWait();
    const before = this.#answering.get(session);
    const ready = before === undefined ? wait : before.then(() => wait);
    if (ready === undefined) return session.sendApp(msgType, body);
    const send = (type: string, text: string) => {
      if (this.#attached(session)) session.sendApp(type, text);
    };
    const sent = ready.then(
      () => send(msgType, body),
      (error: unknown) => {
        const text = error instanceof ProblemError ? `${error.code}: ${error.detail}` : String(error);
        send(
          MSG.BusinessMessageReject,
          businessReject(refSeq, refMsgType, BUSINESS_REJECT.ApplicationNotAvailable, text),
        );
      },
    );
    this.#answering.set(session, sent);
    void sent.then(() => {
      if (this.#answering.get(session) === sent) this.#answering.delete(session);
    });
  }
}
