/** What the FIX order gateway needs of the exchange and of a logged-on session. */
import type { Order } from '../core/messages.ts';
import type { DurableBatch } from '../outbox.ts';
import type { ExecutionView, OrderInput, OrderView } from '../service.ts';
import type { EncodedBody } from './body-bytes.ts';

/** What the gateway needs of the exchange (ExchangeService has it). */
export interface FixVenue {
  submitOrder(account: string, input: OrderInput): Order;
  submitCancel(account: string, orderId: number): Order;
  order(account: string, orderId: number): OrderView;
  /** The order the account placed today under a client order id (ClOrdID), if any. */
  orderByClientId(account: string, clientOrderId: string): Order | undefined;
  executions(account: string, query: { orderId: number }): { executions: readonly ExecutionView[] };
  /** Undefined when all applied is durable, else its commit (rejecting EX_JOURNAL_FAILED). */
  readsWait(): Promise<void> | undefined;
  /** `active`: whether the listener has anyone to tell now (ExchangeService.subscribe). */
  subscribe(listener: (batch: DurableBatch) => void, active?: () => boolean): () => void;
}

/** A logged-on session as the gateway sees it. */
export interface OrderSession {
  readonly account: string;
  /** Sends an application message; `body` is its fields after the header, encoded (read at once). */
  sendApp(msgType: string, body: string | EncodedBody): void;
  reject(refSeq: number, refMsgType: string, reason: number, text: string, refTag?: number): void;
}
