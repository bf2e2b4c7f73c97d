import type { Command, Execution, Order } from '../../../src/core/messages.ts';

/** A journaled command with `n` as its time and amount. */
export const deposit = (n: number): Command => ({
  v: 1,
  type: 'account.deposit',
  at: n,
  account: 'a',
  cash: n,
  shares: {},
});

export const execution = (id: number, seq: number, account = 'a', orderId = 1): Execution => ({
  id,
  seq,
  orderId,
  account,
  symbol: 'AAPL',
  side: 'buy',
  price: 10,
  orderType: 'limit',
  quantity: 1,
  counterOrderId: 2,
  at: 5,
});

/** A completed order of one share. */
export const finishedOrder = (
  id: number,
  account: string,
  clientOrderId?: string,
  creationTime = 0,
): Order => ({
  id,
  account,
  creationTime,
  symbol: 'AAPL',
  side: 'buy',
  price: 100,
  orderType: 'limit',
  quantity: 1,
  filledQuantity: 1,
  remainingQuantity: 0,
  status: 'completed',
  ...(clientOrderId === undefined ? {} : { clientOrderId }),
});
