/**
 * The WebSocket feed's messages (docs/exchange-websocket.md), pure: one durable batch of events
 * becomes one `md` update per symbol it touched and one `account` update per account it touched,
 * of those someone subscribes to (nothing is built for the others). The hub serialises each once
 * and writes the same bytes to every subscriber.
 */
import type { L1, L2 } from './market-data.ts';
import type { CancelReason, ExchangeEvent, Side } from './messages.ts';
import { executionView, orderView, type ExecutionView, type OrderView } from './views.ts';

export interface LevelChange {
  readonly side: Side;
  readonly price: number;
  /** The level's total after the change; 0: the level is gone. */
  readonly quantity: number;
}

export interface Trade {
  /** The buyer's execution id (each match makes one execution per side). */
  readonly id: number;
  readonly price: number;
  readonly quantity: number;
  readonly timestamp: number;
}

export interface SymbolUpdate {
  readonly type: 'md';
  readonly symbol: string;
  /** The first and last command of the batch that touched the symbol. */
  readonly fromSeq: number;
  seq: number;
  l1: L1 | null;
  readonly levels: LevelChange[];
  readonly trades: Trade[];
}

export type AccountEvent =
  | { readonly type: 'order.accepted'; readonly order: OrderView }
  | { readonly type: 'execution'; readonly execution: ExecutionView }
  | { readonly type: 'order.completed'; readonly order: OrderView }
  | { readonly type: 'order.canceled'; readonly order: OrderView; readonly reason: CancelReason };

export interface AccountUpdate {
  readonly type: 'account';
  seq: number;
  readonly events: AccountEvent[];
}

export interface SymbolSnapshot extends L2 {
  readonly type: 'snapshot';
  readonly symbol: string;
  readonly seq: number;
  readonly l1: L1;
}

/** A symbol's snapshot and the group commit that makes what it shows durable. */
export interface DurableSnapshot {
  readonly snapshot: SymbolSnapshot;
  readonly durable: Promise<void>;
}

/** What the feed reads of the state after the batch. */
export interface FeedState {
  l1(symbol: string): L1;
  /** The order as it stands now (completed and canceled events carry only its id). */
  order(orderId: number): OrderView;
}

/** Which updates have a subscriber (the hub knows). */
export interface FeedInterest {
  wantsSymbol(symbol: string): boolean;
  wantsAccount(account: string): boolean;
}

/** Every update (for tests and tools that read them all). */
export const EVERY_UPDATE: FeedInterest = { wantsSymbol: () => true, wantsAccount: () => true };

export interface FeedUpdates {
  readonly symbols: Map<string, SymbolUpdate>;
  readonly accounts: Map<string, AccountUpdate>;
}

export function feedUpdates(
  events: readonly ExchangeEvent[],
  state: FeedState,
  interest: FeedInterest = EVERY_UPDATE,
): FeedUpdates {
  const symbols = new Map<string, SymbolUpdate>();
  const accounts = new Map<string, AccountUpdate>();
  // The symbol's update, or undefined when nobody subscribes to it.
  const symbolUpdate = (symbol: string, seq: number): SymbolUpdate | undefined => {
    let update = symbols.get(symbol);
    if (update === undefined) {
      if (!interest.wantsSymbol(symbol)) return undefined;
      update = { type: 'md', symbol, fromSeq: seq, seq, l1: null, levels: [], trades: [] };
      symbols.set(symbol, update);
    }
    update.seq = seq;
    return update;
  };
  // The account's update, or undefined when nobody subscribes to it.
  const accountUpdate = (account: string, seq: number): AccountUpdate | undefined => {
    let update = accounts.get(account);
    if (update === undefined) {
      if (!interest.wantsAccount(account)) return undefined;
      accounts.set(account, (update = { type: 'account', seq, events: [] }));
    }
    update.seq = seq;
    return update;
  };
  for (const e of events) {
    switch (e.type) {
      case 'book.level':
        symbolUpdate(e.symbol, e.seq)?.levels.push({ side: e.side, price: e.price, quantity: e.volume });
        break;
      case 'execution': {
        const x = e.execution;
        if (x.side === 'buy')
          symbolUpdate(x.symbol, e.seq)?.trades.push({
            id: x.id,
            price: x.price,
            quantity: x.quantity,
            timestamp: x.at,
          });
        accountUpdate(x.account, e.seq)?.events.push({ type: 'execution', execution: executionView(x) });
        break;
      }
      case 'order.accepted':
        accountUpdate(e.order.account, e.seq)?.events.push({
          type: 'order.accepted',
          order: orderView(e.order),
        });
        break;
      case 'order.completed':
        accountUpdate(e.account, e.seq)?.events.push({
          type: 'order.completed',
          order: state.order(e.orderId),
        });
        break;
      case 'order.canceled':
        accountUpdate(e.account, e.seq)?.events.push({
          type: 'order.canceled',
          order: state.order(e.orderId),
          reason: e.reason,
        });
        break;
      default:
        break;
    }
  }
  for (const update of symbols.values()) update.l1 = state.l1(update.symbol);
  return { symbols, accounts };
}
