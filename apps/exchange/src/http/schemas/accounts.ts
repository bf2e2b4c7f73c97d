/** JSON schemas of the exchange API's accounts (spec/exchange.md): balances, deposits, the kill switch. */
import { symbol, amount } from './fields.ts';
import { orderSchema } from './orders.ts';

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
