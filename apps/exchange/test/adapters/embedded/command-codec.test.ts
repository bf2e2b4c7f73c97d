import t from 'tap';
import {
  decodeCommand,
  decodeCommands,
  encodeCommand,
} from '../../../src/adapters/embedded/command-codec.ts';
import type { Command } from '../../../src/core/messages.ts';

const commands: Command[] = [
  {
    v: 1,
    type: 'order.new',
    at: 5,
    account: 'a,"b',
    orderId: 7,
    symbol: 'AAPL',
    side: 'sell',
    price: 10,
    quantity: 3,
  },
  {
    v: 1,
    type: 'order.new',
    at: 6,
    account: 'a',
    orderId: 8,
    symbol: 'MSFT',
    side: 'buy',
    price: 11,
    quantity: 4,
  },
  {
    v: 1,
    type: 'order.new',
    at: 6,
    account: 'a',
    orderId: 9,
    symbol: 'MSFT',
    side: 'sell',
    price: 11,
    quantity: 4,
    clientOrderId: 'c,"1',
  },
  { v: 1, type: 'order.cancel', at: 7, account: 'a', orderId: 7 },
  { v: 1, type: 'orders.cancel-all', at: 8, account: 'a', symbol: 'AAPL' },
  { v: 1, type: 'account.deposit', at: 9, account: 'a', cash: 1, shares: { AAPL: 2 } },
  { v: 1, type: 'account.kill-switch', at: 10, account: 'a', on: true },
];

t.test('every command survives the round trip, as a list too', async (t) => {
  for (const c of commands) t.same(decodeCommand(JSON.parse(encodeCommand(c)) as never), c, c.type);
  t.same(decodeCommands(commands.map(encodeCommand).join(',')), commands);
  t.ok(
    encodeCommand(commands[0]!).length < JSON.stringify(commands[0]).length / 2,
    'orders take less than half the bytes',
  );
  t.equal(encodeCommand(commands[0]!)[1], '1', 'an order without a client order id keeps the first layout');
  t.equal(encodeCommand(commands[2]!)[1], '3', 'one with it has its own layout');
});

t.test('an unknown layout is refused, not guessed', async (t) => {
  t.throws(() => decodeCommand([9, 1, 'a', 1] as never), /unknown command encoding 9/);
});
