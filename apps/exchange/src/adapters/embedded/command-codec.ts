/**
 * The journal's encoding of commands: the two that make up nearly all of the traffic (new order,
 * cancel) as positional arrays, a third of the bytes of the JSON object and cheaper to write
 * and parse; the rest as their JSON objects. Versioned by the leading code: a new layout gets a
 * new code, and old journals keep reading.
 *   [1, at, account, orderId, symbol, side (0 buy, 1 sell), price, quantity]   order.new v1
 *   [2, at, account, orderId]                                                 order.cancel v1
 *   { …the command }                                                          anything else
 */
import type { Command } from '../../core/messages.ts';

const NEW_V1 = 1;
const CANCEL_V1 = 2;

type Encoded = Command | [number, number, string, number, ...unknown[]];

export function encodeCommand(command: Command): string {
  if (command.type === 'order.new' && command.v === 1) {
    const { at, account, orderId, symbol, side, price, quantity } = command;
    return JSON.stringify([NEW_V1, at, account, orderId, symbol, side === 'buy' ? 0 : 1, price, quantity]);
  }
  if (command.type === 'order.cancel' && command.v === 1) {
    return JSON.stringify([CANCEL_V1, command.at, command.account, command.orderId]);
  }
  return JSON.stringify(command);
}

export function decodeCommand(encoded: Encoded): Command {
  if (!Array.isArray(encoded)) return encoded;
  const [code, at, account, orderId] = encoded;
  if (code === NEW_V1) {
    const [, , , , symbol, side, price, quantity] = encoded as [
      number,
      number,
      string,
      number,
      string,
      number,
      number,
      number,
    ];
    return {
      v: 1,
      type: 'order.new',
      at,
      account,
      orderId,
      symbol,
      side: side === 0 ? 'buy' : 'sell',
      price,
      quantity,
    };
  }
  if (code === CANCEL_V1) return { v: 1, type: 'order.cancel', at, account, orderId };
  throw new RangeError(`journal: unknown command encoding ${code}`);
}

/** Decodes a journal row's commands (a comma-joined list of encoded commands). */
export function decodeCommands(text: string): Command[] {
  return (JSON.parse(`[${text}]`) as Encoded[]).map(decodeCommand);
}
