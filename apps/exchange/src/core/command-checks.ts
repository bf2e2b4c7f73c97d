/**
 * The checks of a request before it is sequenced (pure: nothing changes), which the order manager
 * answers (its `check…` methods) from its state and the finished orders' store. A new order's:
 * the gateway's rules, the kill switch, the ClOrdID, the session, risk, self-trade and the
 * wallet, in that order.
 */
import { holdingOf, knownExposure } from './holding.ts';
import type { Order } from './messages.ts';
import { checkOrderShape, type OrderRequest, type Refusal } from './order-checks.ts';
import type { OrderManager } from './order-manager.ts';
import { checkRisk, type RiskLimits } from './risk.ts';
import { selfCrossing } from './self-trade.ts';
import * as wallet from './wallet.ts';

/** What the checks read of the order manager. */
export type CheckedState = Pick<
  OrderManager,
  'engines' | 'accounts' | 'orders' | 'clock' | 'rules' | 'finished'
>;

/** Everything a new order must pass before it is sequenced; undefined when it may go. */
export function checkNewOrder(
  state: CheckedState,
  accountId: string,
  request: OrderRequest,
  at: number,
): Refusal | undefined {
  const engine = state.engines.get(request.symbol);
  const shape = checkOrderShape(engine?.spec, request);
  if (shape !== undefined) return shape;
  const { symbol, side, price, quantity } = request;
  const account = state.accounts.get(accountId);
  if (account?.killed === true) {
    return { code: 'EX_KILL_SWITCH', detail: `account ${accountId} is suspended by its kill switch` };
  }
  const session = state.clock.at(at);
  const { clientOrderId } = request;
  if (clientOrderId !== undefined && account !== undefined) {
    const placed =
      account.clientOrderIds.find(session.day, clientOrderId) ??
      finishedOnDay(state, accountId, clientOrderId, session.day)?.id;
    if (placed !== undefined) {
      return {
        code: 'EX_DUPLICATE_CLIENT_ORDER_ID',
        detail: `client order id ${clientOrderId} placed order ${placed} today`,
        extra: { orderId: placed },
      };
    }
  }
  if (!session.open)
    return {
      code: 'EX_MARKET_CLOSED',
      detail: 'the market is closed: orders are taken during the trading session only',
    };
  // A holding is derived state: making one here changes nothing a snapshot or digest sees.
  const holding = account === undefined ? undefined : holdingOf(account, symbol);
  const exposure = holding === undefined ? undefined : knownExposure(account!, holding);
  const risk = checkRisk(state.rules.limits, exposure, session.day, price, quantity);
  if (risk !== undefined) return { code: risk, detail: riskDetail(risk, state.rules.limits) };
  if (state.rules.selfTrade === 'cancel-incoming' && holding !== undefined) {
    const crossing = selfCrossing(holding, side, price);
    if (crossing.length > 0) {
      return {
        code: 'EX_SELF_TRADE',
        detail: `the order would trade with your own resting order ${crossing[0]}`,
        extra: { restingOrderIds: crossing },
      };
    }
  }
  const funds =
    account === undefined
      ? wallet.canReserve(wallet.emptyBalances(), undefined, side, price, quantity)
      : wallet.canReserve(account.balances, holding, side, price, quantity);
  if (funds === 'EX_INSUFFICIENT_FUNDS') {
    return {
      code: funds,
      detail: `a buy of ${quantity} at ${price} needs ${price * quantity} of available cash`,
    };
  }
  if (funds === 'EX_INSUFFICIENT_SHARES') {
    return { code: funds, detail: `a sell of ${quantity} ${symbol} needs ${quantity} available shares` };
  }
  return undefined;
}

/** The finished order placed on `day` under a client order id (the first, as ClientOrderIds keeps). */
export function finishedOnDay(
  state: Pick<CheckedState, 'clock' | 'finished'>,
  accountId: string,
  clientOrderId: string,
  day: string,
): Order | undefined {
  for (const order of state.finished.byClientId(accountId, clientOrderId))
    if (state.clock.at(order.creationTime).day === day) return order;
  return undefined;
}

export function checkCancel(state: CheckedState, accountId: string, orderId: number): Refusal | undefined {
  const order = state.orders.get(orderId) ?? state.finished.order(orderId);
  if (order === undefined || order.account !== accountId) {
    return { code: 'EX_ORDER_NOT_FOUND', detail: `you have no order ${orderId}` };
  }
  if (order.status !== 'new') {
    return {
      code: 'EX_CANNOT_CANCEL_ALREADY_MATCHED',
      detail: `order ${orderId} is ${order.status}, no longer in the book`,
      extra: { result: 'CANNOT_CANCEL_ALREADY_MATCHED' },
    };
  }
  return undefined;
}

export function checkDeposit(
  state: CheckedState,
  accountId: string,
  cash: number,
  shares: Readonly<Record<string, number>>,
): Refusal | undefined {
  const unknown = Object.keys(shares).find((s) => !state.engines.has(s));
  if (unknown !== undefined)
    return { code: 'EX_UNKNOWN_SYMBOL', detail: `no symbol ${unknown} is traded here` };
  const refusal = wallet.checkDeposit(state.accounts.get(accountId)?.balances, cash, shares);
  if (refusal === 'EX_INVALID_DEPOSIT') {
    return {
      code: refusal,
      detail: 'a deposit is non-negative whole amounts of cash and shares, not all zero',
    };
  }
  if (refusal === 'EX_BALANCE_OVERFLOW') return { code: refusal, detail: 'the balance would pass 2^53 - 1' };
  return undefined;
}

function riskDetail(code: NonNullable<ReturnType<typeof checkRisk>>, limits: RiskLimits): string {
  if (code === 'EX_RISK_MAX_ORDER_SIZE') return `an order may be for at most ${limits.maxQuantity} shares`;
  if (code === 'EX_RISK_MAX_NOTIONAL') return `price × quantity may be at most ${limits.maxNotional}`;
  return `at most ${limits.dailyCap} shares of one symbol per account per day (filled plus open)`;
}
