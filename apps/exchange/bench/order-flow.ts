/**
 * A deterministic stream of trading requests for the pipeline benchmark and the recovery tests:
 * accounts funded up front, then limit orders around a mid price (31 % fill on arrival with seed 42), with a
 * share of cancels of the account's own earlier orders. The same seed gives the same stream.
 */
import type { ExchangeService, OrderInput } from '../src/service.ts';
import { rng } from './stream.ts';

export interface FlowOptions {
  readonly seed: number;
  readonly accounts: number;
  readonly symbols: readonly string[];
  /** Share of requests that cancel the account's oldest open order. */
  readonly cancelShare?: number;
  readonly mid?: number;
}

export type Request =
  | { readonly kind: 'order'; readonly account: string; readonly input: OrderInput }
  | { readonly kind: 'cancel'; readonly account: string };

export const accountName = (i: number): string => `acct-${i}`;

/** Deposits for every account of the flow: cash and shares far beyond what the flow can use. */
export async function fund(service: ExchangeService, options: FlowOptions): Promise<void> {
  const shares = Object.fromEntries(options.symbols.map((s) => [s, 1_000_000_000]));
  const deposits: Array<Promise<unknown>> = [];
  for (let i = 0; i < options.accounts; i++)
    deposits.push(service.deposit(accountName(i), 1_000_000_000_000, shares));
  await Promise.all(deposits);
}

export function orderFlow(options: FlowOptions): () => Request {
  const random = rng(options.seed);
  const mid = options.mid ?? 10_000;
  const cancelShare = options.cancelShare ?? 0.2;
  return () => {
    const account = accountName(Math.floor(random() * options.accounts));
    if (random() < cancelShare) return { kind: 'cancel', account };
    const side = random() < 0.5 ? 'buy' : 'sell';
    // Buys mostly below the mid and sells above it, with an overlap: 31 % of orders fill on arrival.
    const offset = Math.floor(random() * 30) - 10;
    const price = side === 'buy' ? mid - offset : mid + offset;
    const symbol = options.symbols[Math.floor(random() * options.symbols.length)]!;
    return {
      kind: 'order',
      account,
      input: { symbol, side, price, orderType: 'limit', quantity: 1 + Math.floor(random() * 100) },
    };
  };
}

/**
 * Sends one request synchronously (steps 1–6 of the service; durable after `durable()`).
 * Refusals are part of the flow (a cancel of an order already filled, say): they are counted.
 */
export function send(service: ExchangeService, request: Request): boolean {
  try {
    if (request.kind === 'order') service.submitOrder(request.account, request.input);
    else {
      const id = service.oldestOpenOrder(request.account);
      if (id === undefined) return false;
      service.submitCancel(request.account, id);
    }
    return true;
  } catch {
    return false;
  }
}
