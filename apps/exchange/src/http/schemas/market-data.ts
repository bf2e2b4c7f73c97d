/** JSON schemas of the exchange API's market data (spec/exchange.md): books L1–L3 and candles. */
import { symbol, time } from './fields.ts';

const level = {
  type: 'object',
  required: ['price', 'quantity'],
  additionalProperties: false,
  properties: { price: { type: 'integer' }, quantity: { type: 'integer' } },
} as const;

/** How many levels a book read gives when it does not say, and at most. */
export const DEFAULT_BOOK_DEPTH = 10;
export const MAX_BOOK_DEPTH = 1_000;

export const bookQuerySchema = {
  type: 'object',
  required: ['symbol'],
  additionalProperties: false,
  properties: {
    symbol,
    depth: { type: 'integer', minimum: 1, maximum: MAX_BOOK_DEPTH, default: DEFAULT_BOOK_DEPTH },
  },
} as const;

export const l1QuerySchema = {
  type: 'object',
  required: ['symbol'],
  additionalProperties: false,
  properties: { symbol },
} as const;

export const l1ReplySchema = {
  type: 'object',
  required: ['bid', 'ask'],
  additionalProperties: false,
  properties: { bid: { anyOf: [level, { type: 'null' }] }, ask: { anyOf: [level, { type: 'null' }] } },
} as const;

export const l2ReplySchema = {
  type: 'object',
  required: ['bids', 'asks'],
  additionalProperties: false,
  properties: { bids: { type: 'array', items: level }, asks: { type: 'array', items: level } },
} as const;

const l3Level = {
  type: 'object',
  required: ['price', 'quantity', 'orders'],
  additionalProperties: false,
  properties: {
    price: { type: 'integer' },
    quantity: { type: 'integer' },
    orders: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'quantity'],
        additionalProperties: false,
        properties: { id: { type: 'integer' }, quantity: { type: 'integer' } },
      },
    },
  },
} as const;

export const l3ReplySchema = {
  type: 'object',
  required: ['bids', 'asks'],
  additionalProperties: false,
  properties: { bids: { type: 'array', items: l3Level }, asks: { type: 'array', items: l3Level } },
} as const;

export const candlesQuerySchema = {
  type: 'object',
  required: ['symbol', 'resolution', 'startTime', 'endTime'],
  additionalProperties: false,
  properties: {
    symbol,
    resolution: { type: 'integer', minimum: 1, maximum: 31_622_400, description: 'window length in seconds' },
    startTime: time,
    endTime: time,
  },
} as const;

export const candlesReplySchema = {
  type: 'object',
  required: ['candles'],
  additionalProperties: false,
  properties: {
    candles: {
      type: 'array',
      items: {
        type: 'object',
        required: ['open', 'close', 'high', 'low', 'volume', 'timestamp'],
        additionalProperties: false,
        properties: {
          open: { type: 'number' },
          close: { type: 'number' },
          high: { type: 'number' },
          low: { type: 'number' },
          volume: { type: 'integer' },
          timestamp: { type: 'integer' },
        },
      },
    },
  },
} as const;
