/** JSON schemas of the exchange API's executions (spec/exchange.md). */
import { symbol, side, time } from './fields.ts';

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
