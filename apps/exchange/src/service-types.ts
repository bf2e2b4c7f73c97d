/** What ExchangeService takes and answers, besides the core's own types (service.ts re-exports them). */
import type { OrderStatus, Side } from './core/messages.ts';
import type { ExchangeRules } from './core/order-manager.ts';
import type { Journal } from './ports.ts';

export interface ExchangeServiceOptions {
  readonly rules: ExchangeRules;
  readonly journal: Journal;
  /** The wall clock, milliseconds since the epoch (tests pass their own). */
  readonly now?: () => number;
  /** Commands between snapshots. */
  readonly snapshotEvery?: number;
  /**
   * A snapshot that could not be taken (the command that reached it stands: it is journaled and
   * applied; a restart replays from the snapshot before). The service logs it.
   */
  readonly onSnapshotFailed?: (seq: number, error: unknown) => void;
}

export interface OrderInput {
  readonly symbol: string;
  readonly side: Side;
  readonly price: number;
  readonly orderType: string;
  readonly quantity: number;
  /** The client's id of the order (FIX ClOrdID): an order per id per account and trading day. */
  readonly clientOrderId?: string;
}

export interface AccountView {
  readonly account: string;
  readonly cash: { readonly available: number; readonly reserved: number };
  readonly shares: Record<string, { readonly available: number; readonly reserved: number }>;
  readonly killSwitch: boolean;
}

export interface OrderQuery {
  readonly status?: OrderStatus;
  readonly symbol?: string;
  /** The last id of the previous page. */
  readonly after?: number;
  readonly limit?: number;
}

export interface ExecutionQuery {
  readonly symbol?: string;
  readonly orderId?: number;
  readonly startTime?: number;
  readonly endTime?: number;
}
