/**
 * Reads a matching engine's output back into the order manager's state: each numeric record
 * (core/output.ts) becomes an order, wallet, risk and tape change, and an event. It is the
 * return half of the pipeline (executions → order manager); the order manager's `apply` is the
 * way in. Kept apart so that a distributed order manager can read the same records off the
 * `ex.out.<SYMBOL>` stream.
 */
import {
  OUT_ACCEPTED,
  OUT_CANCELED,
  OUT_COMPLETED,
  OUT_EXECUTION,
  OUT_LEVEL,
  OUT_REJECTED,
  RESULT,
  SIDE_BUY,
} from './codes.ts';
import type { MatchingEngine } from './engine.ts';
import type { CancelReason, ExchangeEvent, Execution, Order, Side } from './messages.ts';
import type { AccountState } from './account-state.ts';
import type { Retiring } from './leaving-state.ts';
import type { Refusal } from './order-checks.ts';
import { RECORD_WIDTH } from './output.ts';
import type { RetiredDigest } from './retired-digest.ts';
import { holdingOf, placedExposure, type Holding } from './holding.ts';
import { recordFill } from './risk.ts';
import type { TradeTape } from './trade-tape.ts';
import type { SessionClock } from './trading-hours.ts';
import * as wallet from './wallet.ts';

/** The state the output changes (the order manager's). */
export interface OutputTarget {
  readonly orders: Map<number, Order>;
  readonly accounts: Map<string, AccountState>;
  readonly engines: ReadonlyMap<string, MatchingEngine>;
  readonly tapes: ReadonlyMap<string, TradeTape>;
  readonly clock: SessionClock;
  readonly retired: RetiredDigest;
  readonly retiring: Retiring;
  nextExecutionId: number;
}

/** The command being applied: its sequence number and time, and the events it has produced. */
export interface Batch {
  seq: number;
  at: number;
  events: ExchangeEvent[];
  /** Off during a replay: state changes the same, no event objects are built. */
  record: boolean;
}

const sideName = (code: number): Side => (code === SIDE_BUY ? 'buy' : 'sell');

/** Turns the engine's output records into state changes and events; clears the output. */
export function readOutput(
  target: OutputTarget,
  engine: MatchingEngine,
  reason: CancelReason,
  batch: Batch,
): Refusal | undefined {
  const out = engine.out;
  const r = out.records;
  const symbol = engine.spec.symbol;
  let refusal: Refusal | undefined;
  for (let i = 0; i < out.count; i++) {
    const o = i * RECORD_WIDTH;
    switch (r[o]) {
      case OUT_ACCEPTED:
        if (batch.record)
          batch.events.push({
            v: 1,
            type: 'order.accepted',
            seq: batch.seq,
            at: batch.at,
            order: { ...target.orders.get(r[o + 3]!)! },
          });
        break;
      case OUT_EXECUTION:
        fill(target, batch, r[o + 4]!, r[o + 6]!, r[o + 7]!, r[o + 8]!);
        break;
      case OUT_COMPLETED: {
        const order = target.orders.get(r[o + 3]!)!;
        order.status = 'completed';
        finished(target, target.accounts.get(order.account)!, order);
        if (batch.record)
          batch.events.push({
            v: 1,
            type: 'order.completed',
            seq: batch.seq,
            at: batch.at,
            orderId: order.id,
            account: order.account,
            symbol,
            order,
          });
        break;
      }
      case OUT_CANCELED:
        canceled(target, batch, target.orders.get(r[o + 3]!)!, r[o + 4]!, reason);
        break;
      case OUT_LEVEL:
        if (batch.record)
          batch.events.push({
            v: 1,
            type: 'book.level',
            seq: batch.seq,
            at: batch.at,
            symbol,
            side: sideName(r[o + 3]!),
            price: r[o + 4]!,
            volume: r[o + 5]!,
            orders: r[o + 6]!,
          });
        break;
      case OUT_REJECTED:
        refusal = rejected(target, r[o + 3]!, r[o + 4]!, r[o + 5]!);
        break;
    }
  }
  out.clear();
  return refusal;
}

function fill(
  target: OutputTarget,
  batch: Batch,
  orderId: number,
  price: number,
  quantity: number,
  counterOrderId: number,
): void {
  const order = target.orders.get(orderId)!;
  const account = target.accounts.get(order.account)!;
  const holding = holdingOf(account, order.symbol);
  order.filledQuantity += quantity;
  order.remainingQuantity -= quantity;
  if (order.side === 'buy') {
    wallet.settleBuy(account.balances, holding, order.price, price, quantity);
    target.tapes.get(order.symbol)!.record(batch.at, price, quantity);
  } else wallet.settleSell(account.balances, holding, price, quantity);
  recordFill(placedExposure(account, holding), target.clock.at(batch.at).day, quantity);
  const execution: Execution = {
    id: target.nextExecutionId++,
    orderId,
    account: order.account,
    symbol: order.symbol,
    side: order.side,
    price,
    orderType: 'limit',
    quantity,
    counterOrderId,
    at: batch.at,
    seq: batch.seq,
  };
  // Out of the state: `retiring` takes it to the journal's store; the digest keeps its trace.
  target.retired.add(execution);
  target.retiring.execution(execution);
  if (batch.record) batch.events.push({ v: 1, type: 'execution', seq: batch.seq, at: batch.at, execution });
}

function canceled(
  target: OutputTarget,
  batch: Batch,
  order: Order,
  quantity: number,
  reason: CancelReason,
): void {
  const account = target.accounts.get(order.account)!;
  order.status = 'canceled';
  const holding = finished(target, account, order);
  wallet.release(account.balances, holding, order.side, order.price, quantity);
  placedExposure(account, holding).open -= quantity;
  if (batch.record)
    batch.events.push({
      v: 1,
      type: 'order.canceled',
      seq: batch.seq,
      at: batch.at,
      orderId: order.id,
      order,
      account: order.account,
      symbol: order.symbol,
      canceledQuantity: quantity,
      reason,
    });
}

/**
 * A filled or canceled order leaves the state: `retiring` takes it to the journal's store, its
 * client order id goes with it, and the digest keeps its trace. Returns the order's holding.
 */
function finished(target: OutputTarget, account: AccountState, order: Order): Holding {
  const holding = holdingOf(account, order.symbol);
  account.open.delete(order.id);
  holding.open.finished();
  target.orders.delete(order.id);
  if (order.clientOrderId !== undefined) account.clientOrderIds.forget(order.clientOrderId, order.id);
  target.retired.add(order);
  target.retiring.order(order);
  return holding;
}

/**
 * The engine refused what the checks let through (a bug or a race the distributed mode may
 * have): a refused new order is undone, so state stays as if it had never come.
 */
function rejected(target: OutputTarget, code: number, orderId: number, expectedSeq: number): Refusal {
  const order = target.orders.get(orderId);
  if (
    code !== RESULT.CANNOT_CANCEL_ALREADY_MATCHED &&
    order !== undefined &&
    order.status === 'new' &&
    order.filledQuantity === 0 &&
    !target.engines.get(order.symbol)!.book.has(orderId)
  ) {
    const account = target.accounts.get(order.account)!;
    const holding = holdingOf(account, order.symbol);
    wallet.release(account.balances, holding, order.side, order.price, order.quantity);
    placedExposure(account, holding).open -= order.quantity;
    account.open.delete(orderId);
    holding.open.remove(order);
    target.orders.delete(orderId);
  }
  const result = (Object.keys(RESULT) as Array<keyof typeof RESULT>).find((name) => RESULT[name] === code)!;
  return {
    code: `EX_${result}` as Refusal['code'],
    detail: `the matching engine answered ${result}`,
    extra: expectedSeq >= 0 ? { result, expectedSeq } : { result },
  };
}
