/** What a WebSocket client may ask (docs/exchange-websocket.md, "Client → server"), parsed and checked. */

export type FeedRequest =
  { readonly op: 'subscribe' | 'unsubscribe'; readonly symbol: string } | { readonly op: 'ping' };

export interface FeedRequestError {
  readonly type: 'error';
  readonly code: 'EX_WS_BAD_MESSAGE' | 'EX_UNKNOWN_SYMBOL';
  readonly detail: string;
}

const bad = (detail: string): FeedRequestError => ({ type: 'error', code: 'EX_WS_BAD_MESSAGE', detail });

export function parseFeedRequest(text: string, symbols: ReadonlySet<string>): FeedRequest | FeedRequestError {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return bad('a message is one JSON object');
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message))
    return bad('a message is one JSON object');
  const { op, symbol } = message as { op?: unknown; symbol?: unknown };
  if (op === 'ping') return { op };
  if (op !== 'subscribe' && op !== 'unsubscribe')
    return bad('"op" is one of "subscribe", "unsubscribe", "ping"');
  if (typeof symbol !== 'string') return bad(`"${op}" needs a "symbol"`);
  if (!symbols.has(symbol))
    return { type: 'error', code: 'EX_UNKNOWN_SYMBOL', detail: `no symbol ${symbol} is traded here` };
  return { op, symbol };
}
