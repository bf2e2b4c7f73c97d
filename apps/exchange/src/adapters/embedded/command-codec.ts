/**
 * The journal's encoding of commands: the two that make up nearly all of the traffic (new order,
 * cancel) as positional arrays, a third of the bytes of the JSON object and cheaper to write
 * and parse; the rest as their JSON objects. Versioned by the leading code: a new layout gets a
 * new code, and old journals keep reading.
 *   [1, at, account, orderId, symbol, side (0 buy, 1 sell), price, quantity]   order.new v1
 *   [3, at, account, orderId, symbol, side, price, quantity, clientOrderId]    order.new v1 with
 *                                                                     a client order id (FIX)
 *   [2, at, account, orderId]                                                 order.cancel v1
 *   { …the command }                                                          anything else
 * A journal row holds its batch's commands comma-joined (command-text.ts writes them).
 */
import type { Command } from '../../core/messages.ts';

export const NEW_V1 = 1;
export const CANCEL_V1 = 2;
export const NEW_V1_CLIENT_ID = 3;

export type Encoded = Command | [number, number, string, number, ...unknown[]];

/** The command in its journal layout (see above). */
function commandRow(command: Command): Encoded {
  if (command.type === 'order.new' && command.v === 1) {
    const { at, account, orderId, symbol, side, price, quantity, clientOrderId } = command;
    const sideCode = side === 'buy' ? 0 : 1;
    return clientOrderId === undefined
      ? [NEW_V1, at, account, orderId, symbol, sideCode, price, quantity]
      : [NEW_V1_CLIENT_ID, at, account, orderId, symbol, sideCode, price, quantity, clientOrderId];
  }
  if (command.type === 'order.cancel' && command.v === 1) {
    return [CANCEL_V1, command.at, command.account, command.orderId];
  }
  return command;
}

export function encodeCommand(command: Command): string {
  return JSON.stringify(commandRow(command));
}

export function decodeCommand(encoded: Encoded): Command {
  if (!Array.isArray(encoded)) return encoded;
  const [code, at, account, orderId] = encoded;
  if (code === NEW_V1 || code === NEW_V1_CLIENT_ID) {
    const [, , , , symbol, side, price, quantity, clientOrderId] = encoded as [
      number,
      number,
      string,
      number,
      string,
      number,
      number,
      number,
      string?,
    ];
    const order = {
      v: 1,
      type: 'order.new',
      at,
      account,
      orderId,
      symbol,
      side: side === 0 ? 'buy' : 'sell',
      price,
      quantity,
    } as const;
    return code === NEW_V1 ? order : { ...order, clientOrderId: clientOrderId! };
  }
  if (code === CANCEL_V1) return { v: 1, type: 'order.cancel', at, account, orderId };
  throw new RangeError(`journal: unknown command encoding ${code}`);
}

/** Decodes a journal row's commands (a comma-joined list of encoded commands). */
export function decodeCommands(text: string): Command[] {
  return (JSON.parse(`[${text}]`) as Encoded[]).map(decodeCommand);
}
