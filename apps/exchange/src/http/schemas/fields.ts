/** The fields the exchange API's schemas share (spec/exchange.md). */

export const symbol = { type: 'string', pattern: '^[A-Z][A-Z0-9.]{0,11}$', examples: ['AAPL'] } as const;
export const side = { type: 'string', enum: ['buy', 'sell'] } as const;
export const id = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
export const time = {
  type: 'integer',
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  description: 'milliseconds since the epoch',
} as const;
export const amount = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;
