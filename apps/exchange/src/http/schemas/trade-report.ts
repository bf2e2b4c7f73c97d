/** JSON schemas of the exchange API's trade report (spec/exchange.md). */
import { side, time } from './fields.ts';
import { TRADE_REPORT_COLUMNS } from '../../core/trade-report.ts';

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
  required: [...TRADE_REPORT_COLUMNS],
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
