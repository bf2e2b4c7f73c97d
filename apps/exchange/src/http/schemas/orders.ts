/** JSON schemas of the exchange API's orders (spec/exchange.md): placing, reading, canceling. */
import { symbol, side, id } from './fields.ts';

export const orderBodySchema = {
  type: 'object',
  required: ['symbol', 'side', 'price', 'orderType', 'quantity'],
  additionalProperties: false,
  properties: {
    symbol,
    side,
    price: {
      type: 'integer',
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'limit price, smallest currency unit',
    },
    // `market` passes the schema so that the answer can say why it is refused (only limit orders).
    orderType: { type: 'string', enum: ['limit', 'market'] },
    quantity: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
  },
} as const;

export const orderSchema = {
  type: 'object',
  required: [
    'id',
    'creationTime',
    'symbol',
    'side',
    'price',
    'orderType',
    'quantity',
    'filledQuantity',
    'remainingQuantity',
    'status',
  ],
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    creationTime: { type: 'integer' },
    symbol: { type: 'string' },
    side,
    price: { type: 'integer' },
    orderType: { type: 'string', enum: ['limit'] },
    quantity: { type: 'integer' },
    filledQuantity: { type: 'integer' },
    remainingQuantity: { type: 'integer' },
    status: { type: 'string', enum: ['new', 'canceled', 'completed'] },
  },
} as const;

export const orderParamsSchema = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id },
} as const;

export const ordersQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: ['new', 'canceled', 'completed'] },
    symbol,
    cursor: { ...id, description: 'next_cursor of the previous page' },
    limit: { type: 'integer', minimum: 1, maximum: 1_000, default: 100 },
  },
} as const;

export const ordersReplySchema = {
  type: 'object',
  required: ['data', 'next_cursor'],
  additionalProperties: false,
  properties: {
    data: { type: 'array', items: orderSchema },
    next_cursor: { type: ['integer', 'null'] },
  },
} as const;

export const cancelAllQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { symbol },
} as const;

export const canceledReplySchema = {
  type: 'object',
  required: ['data'],
  additionalProperties: false,
  properties: { data: { type: 'array', items: orderSchema } },
} as const;
