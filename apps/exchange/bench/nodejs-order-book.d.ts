// The package's own "types" field names a file it does not ship; these are the parts the benchmark uses.
declare module 'nodejs-order-book' {
  export const Side: { readonly BUY: 'buy'; readonly SELL: 'sell' };
  export class OrderBook {
    constructor(options?: Record<string, unknown>);
    limit(options: { side: 'buy' | 'sell'; id: string; size: number; price: number }): unknown;
    cancel(orderID: string): unknown;
  }
}
