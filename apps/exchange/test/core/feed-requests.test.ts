import t from 'tap';
import { parseFeedRequest } from '../../src/core/feed-requests.ts';

const symbols = new Set(['AAPL']);

t.test('subscribe, unsubscribe and ping parse; anything else is a coded error', async (t) => {
  t.same(parseFeedRequest('{"op":"subscribe","symbol":"AAPL"}', symbols), {
    op: 'subscribe',
    symbol: 'AAPL',
  });
  t.same(parseFeedRequest('{"op":"unsubscribe","symbol":"AAPL"}', symbols), {
    op: 'unsubscribe',
    symbol: 'AAPL',
  });
  t.same(parseFeedRequest('{"op":"ping"}', symbols), { op: 'ping' });
  for (const text of [
    '',
    'nope',
    '[]',
    'null',
    '3',
    '{"op":"buy"}',
    '{"op":"subscribe"}',
    '{"op":"subscribe","symbol":7}',
  ])
    t.match(parseFeedRequest(text, symbols), { type: 'error', code: 'EX_WS_BAD_MESSAGE' }, text);
  t.match(parseFeedRequest('{"op":"subscribe","symbol":"ZZZ"}', symbols), {
    type: 'error',
    code: 'EX_UNKNOWN_SYMBOL',
    detail: /ZZZ/,
  });
});
