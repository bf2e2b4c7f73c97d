/** JSON schemas of the exchange API (spec/exchange.md): validation at the edge and the OpenAPI document. */

const symbol = { type: 'string', pattern: '^[A-Z][A-Z0-9.]{0,11}$', examples: ['AAPL'] } as const;
const side = { type: 'string', enum: ['buy', 'sell'] } as const;
const id = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
const time = {
  type: 'integer',
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  description: 'milliseconds since the epoch',
} as const;
const amount = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;

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

export const executionQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    symbol,
    orderId: { type: 'string', pattern: '^[1-9][0-9]{0,15}$' },
    startTime: time,
    endTime: time,
  },
} as const;

export const executionsReplySchema = {
  type: 'object',
  required: ['executions'],
  additionalProperties: false,
  properties: {
    executions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'orderId', 'symbol', 'side', 'price', 'orderType', 'quantity', 'timestamp'],
        additionalProperties: false,
        properties: {
          id: { type: 'integer' },
          orderId: { type: 'integer' },
          symbol: { type: 'string' },
          side,
          price: { type: 'integer' },
          orderType: { type: 'string', enum: ['limit'] },
          quantity: { type: 'integer' },
          timestamp: { type: 'integer' },
        },
      },
    },
  },
} as const;

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

export const accountParamsSchema = {
  type: 'object',
  required: ['account'],
  additionalProperties: false,
  properties: { account: { type: 'string', pattern: '^[A-Za-z0-9_.@-]{1,128}$' } },
} as const;

export const depositBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    cash: amount,
    shares: { type: 'object', propertyNames: symbol, additionalProperties: amount, maxProperties: 1_000 },
  },
} as const;

export const killSwitchBodySchema = {
  type: 'object',
  required: ['on'],
  additionalProperties: false,
  properties: { on: { type: 'boolean' } },
} as const;

const balance = {
  type: 'object',
  required: ['available', 'reserved'],
  additionalProperties: false,
  properties: { available: { type: 'integer' }, reserved: { type: 'integer' } },
} as const;

export const accountReplySchema = {
  type: 'object',
  required: ['account', 'cash', 'shares', 'killSwitch'],
  additionalProperties: false,
  properties: {
    account: { type: 'string' },
    cash: balance,
    shares: { type: 'object', additionalProperties: balance },
    killSwitch: { type: 'boolean' },
  },
} as const;

export const killSwitchReplySchema = {
  type: 'object',
  required: ['killSwitch', 'canceled'],
  additionalProperties: false,
  properties: { killSwitch: { type: 'boolean' }, canceled: { type: 'array', items: orderSchema } },
} as const;

export const tradeReportQuerySchema = {
  type: 'object',
  required: ['date'],
  additionalProperties: false,
  properties: {
    date: {
      type: 'string',
      pattern: '^\\d{4}-\\d{2}-\\d{2}$',
      description: "the trading day, YYYY-MM-DD in the session's time zone",
      examples: ['2026-11-23'],
    },
    account: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: "another account's report (scope admin); default: the caller's",
    },
    format: { type: 'string', enum: ['json', 'csv'], description: 'overrides the Accept header' },
  },
} as const;

const tradeReportRowSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'timestamp',
    'executionId',
    'orderId',
    'clientId',
    'symbol',
    'side',
    'orderType',
    'limitPrice',
    'quantity',
    'price',
    'executedQuantity',
    'remainingQuantity',
  ],
  properties: {
    timestamp: time,
    executionId: { type: 'integer' },
    orderId: { type: 'integer' },
    clientId: { type: 'string' },
    symbol: { type: 'string' },
    side,
    orderType: { type: 'string', enum: ['limit'] },
    limitPrice: { type: 'integer', description: "the order's limit price" },
    quantity: { type: 'integer', description: "the order's quantity" },
    price: { type: 'integer', description: 'the trade price' },
    executedQuantity: { type: 'integer', description: 'the quantity of this execution' },
    remainingQuantity: { type: 'integer', description: "the order's quantity left after this execution" },
  },
} as const;

export const tradeReportReplySchema = {
  type: 'object',
  required: ['date', 'account', 'data'],
  additionalProperties: false,
  properties: {
    date: { type: 'string' },
    account: { type: 'string' },
    data: { type: 'array', items: tradeReportRowSchema },
  },
} as const;
