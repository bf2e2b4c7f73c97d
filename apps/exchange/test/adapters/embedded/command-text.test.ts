import t from 'tap';
import { decodeCommands, encodeCommand } from '../../../src/adapters/embedded/command-codec.ts';
import { CommandText } from '../../../src/adapters/embedded/command-text.ts';
import type { Command } from '../../../src/core/messages.ts';

const order = (fields: Partial<Extract<Command, { type: 'order.new' }>>): Command => ({
  v: 1,
  type: 'order.new',
  at: 1_764_400_000_123,
  account: 'acct-1',
  orderId: 7,
  symbol: 'AAPL',
  side: 'buy',
  price: 10_000,
  quantity: 3,
  ...fields,
});

/** The text JSON writes for the same commands: what the journal stored before, and decodes. */
const asJson = (commands: readonly Command[]): string => commands.map(encodeCommand).join(',');

const written = (commands: readonly Command[]): string => {
  const text = new CommandText();
  for (const c of commands) text.add(c);
  return text.take();
};

t.test('orders and cancels are written as JSON writes their rows, and read back', async (t) => {
  const commands: Command[] = [
    order({}),
    order({ side: 'sell', clientOrderId: 'c-1' }),
    { v: 1, type: 'order.cancel', at: 5, account: 'acct-2', orderId: 7 },
    { v: 1, type: 'orders.cancel-all', at: 8, account: 'a', symbol: 'AAPL' },
    { v: 1, type: 'account.deposit', at: 9, account: 'a', cash: 1, shares: { AAPL: 2 } },
    { v: 1, type: 'account.kill-switch', at: 10, account: 'a', on: true },
  ];
  t.equal(written(commands), asJson(commands));
  t.same(decodeCommands(written(commands)), commands);
  t.equal(written([]), '', 'no commands, no text');
});

t.test('strings JSON escapes, or that are not ASCII, are written as JSON writes them', async (t) => {
  const strings = [
    'a,"b',
    'back\\slash',
    'tab\there',
    'new\nline',
    '\u0000',
    'é',
    'ü€',
    '😀',
    '\ud800',
    '~',
    ' ',
    '',
  ];
  const commands = strings.flatMap((s): Command[] => [
    order({ account: s }),
    order({ symbol: s }),
    order({ clientOrderId: s }),
    { v: 1, type: 'order.cancel', at: 1, account: s, orderId: 2 },
  ]);
  t.equal(written(commands), asJson(commands));
  t.same(decodeCommands(written(commands)), commands);
});

t.test('every number is written as JSON writes it', async (t) => {
  const numbers = [
    0,
    -0,
    1,
    9,
    10,
    99,
    100,
    2 ** 31 - 1,
    2 ** 31,
    2 ** 31 + 1,
    99_999_999,
    100_000_000,
    100_000_001,
    1_764_400_000_123,
    1e15 - 1,
    1e15,
    Number.MAX_SAFE_INTEGER,
    2 ** 60,
    -1,
    -(2 ** 40),
    1.5,
    0.1,
    1e-7,
    1e21,
    Number.NaN,
    Infinity,
  ];
  const commands = numbers.flatMap((n): Command[] => [
    order({ at: n, orderId: n, price: n, quantity: n }),
    { v: 1, type: 'order.cancel', at: n, account: 'a', orderId: n },
  ]);
  t.equal(written(commands), asJson(commands));
});

t.test('a batch larger than the buffer grows it and keeps every byte', async (t) => {
  const commands = Array.from({ length: 5_000 }, (_, i) =>
    order({ account: `account-${'x'.repeat(i % 40)}-${i}`, orderId: i, clientOrderId: `c${i}` }),
  );
  t.equal(written(commands), asJson(commands));
});

t.test('take starts over; clear forgets', async (t) => {
  const text = new CommandText();
  text.add(order({ orderId: 1 }));
  t.equal(text.take(), asJson([order({ orderId: 1 })]));
  t.equal(text.take(), '', 'nothing since');
  text.add(order({ orderId: 2 }));
  text.clear();
  text.add(order({ orderId: 3 }));
  t.equal(text.take(), asJson([order({ orderId: 3 })]), 'no comma, nothing of the cleared command');
});

t.test('a batch with text that is not ASCII, then one without, each read back whole', async (t) => {
  const text = new CommandText();
  const accented = [order({ account: 'zoë' }), order({ clientOrderId: '€1' })];
  for (const c of accented) text.add(c);
  t.equal(text.take(), asJson(accented));
  text.add(order({ account: 'plain' }));
  t.equal(text.take(), asJson([order({ account: 'plain' })]));
  const deposit: Command = { v: 1, type: 'account.deposit', at: 1, account: 'ß', cash: 1, shares: {} };
  text.add(deposit);
  t.equal(text.take(), asJson([deposit]), 'any other command too');
});

t.test('a command JSON cannot write throws and leaves no trace', async (t) => {
  const text = new CommandText();
  text.add(order({ orderId: 1 }));
  const bad = { v: 1, type: 'account.deposit', at: 1, account: 'a', cash: 2n, shares: {} };
  t.throws(() => text.add(bad as unknown as Command), /BigInt/);
  text.add(order({ orderId: 2 }));
  t.equal(text.take(), asJson([order({ orderId: 1 }), order({ orderId: 2 })]));
});

t.test('a new order JSON cannot write, met halfway on the fast path, leaves no trace', async (t) => {
  const text = new CommandText();
  text.add(order({ orderId: 1, account: 'zoë' }));
  // The price comes after the account, id, symbol and side are written.
  const bad = order({ orderId: 2, price: 2n as unknown as number });
  t.throws(() => text.add(bad), /BigInt/);
  text.add(order({ orderId: 3 }));
  t.equal(text.take(), asJson([order({ orderId: 1, account: 'zoë' }), order({ orderId: 3 })]));
  text.add(order({ orderId: 4 }));
  t.throws(() => text.add(bad), /BigInt/);
  t.equal(text.take(), asJson([order({ orderId: 4 })]), 'an ASCII batch is still read as one');
});

t.test('a buffer grown for a large batch shrinks back after a run of small batches', async (t) => {
  const text = new CommandText();
  const first = text.capacity;
  const large = Array.from({ length: 20_000 }, (_, i) => order({ orderId: i + 1 }));
  for (const c of large) text.add(c);
  t.equal(text.take(), asJson(large), 'the large batch is written whole');
  const grown = text.capacity;
  t.ok(grown > first, `grown to ${grown} bytes from ${first}`);

  const small = (n: number): void => {
    for (let i = 0; i < n; i++) {
      text.add(order({ orderId: i }));
      t.equal(text.take(), asJson([order({ orderId: i })]));
    }
  };
  small(63);
  t.equal(text.capacity, grown, 'not after 63 small batches');
  small(1);
  t.equal(text.capacity, grown / 2, 'halved after 64');

  // A batch using a quarter or more starts the count again.
  const quarter = large.slice(0, Math.ceil(large.length / 3));
  small(63);
  for (const c of quarter) text.add(c);
  t.equal(text.take(), asJson(quarter));
  small(63);
  t.equal(text.capacity, grown / 2, 'a busy batch in the run keeps the size');

  small(64 * 20);
  t.equal(text.capacity, first, 'back to the first size, and no smaller');
  text.add(order({ orderId: 5 }));
  t.equal(text.take(), asJson([order({ orderId: 5 })]), 'and still writes what JSON writes');
});
