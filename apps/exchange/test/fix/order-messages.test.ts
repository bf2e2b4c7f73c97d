import t from 'tap';
import { BodyBytes, bodyText } from '../../src/fix/body-bytes.ts';
import { decode, encode, frame, type Field, type FixMessage } from '../../src/fix/codec.ts';
import { executionReport, writeExecutionReport, type ReportFields } from '../../src/fix/execution-report.ts';
import { readCancel, readNewOrder } from '../../src/fix/order-messages.ts';
import { cancelReject, cxlRejReason, ordRejReason } from '../../src/fix/reject-messages.ts';

function message(fields: Field[]): FixMessage {
  const m = decode(encode([[35, 'D'], ...fields]));
  if ('garbled' in m) throw new Error(m.garbled);
  return m;
}

const ORDER: Field[] = [
  [11, 'c1'],
  [55, 'AAPL'],
  [54, '1'],
  [60, '20261123-15:00:00.000'],
  [38, '100'],
  [40, '2'],
  [44, '150'],
];
const without = (tag: number) => ORDER.filter(([k]) => k !== tag);
const replace = (tag: number, value: string) => ORDER.map(([k, v]): Field => [k, k === tag ? value : v]);

t.test('readNewOrder: a limit order in whole units', async (t) => {
  t.same(readNewOrder(message(ORDER)), {
    clOrdId: 'c1',
    symbol: 'AAPL',
    side: 'buy',
    price: 150,
    quantity: 100,
  });
  t.match(readNewOrder(message(replace(44, '150.0'))), { price: 150 }, 'a decimal that is whole is read');
  t.match(readNewOrder(message(replace(54, '2'))), { side: 'sell' });
});

t.test('readNewOrder: a missing or unreadable field is a session-level problem naming the tag', async (t) => {
  for (const tag of [11, 55, 54, 60, 38, 40, 44]) {
    t.match(readNewOrder(message(without(tag))), { problem: 'session', reason: 1, tag }, `without ${tag}`);
  }
  t.match(readNewOrder(message(replace(44, 'abc'))), { problem: 'session', reason: 6, tag: 44 });
  t.match(readNewOrder(message(replace(38, '1e3'))), { problem: 'session', reason: 6, tag: 38 });
  t.match(readNewOrder(message(replace(11, ''))), { problem: 'session', reason: 4, tag: 11 });
});

t.test('readNewOrder: what the exchange does not take is an order problem that says why', async (t) => {
  t.match(readNewOrder(message(replace(40, '1'))), {
    problem: 'order',
    reason: 11,
    text: /EX_ORDER_TYPE_UNSUPPORTED.*only limit/,
  });
  t.match(readNewOrder(message(replace(54, '5'))), { problem: 'order', reason: 11, text: /Side 5/ });
  t.match(readNewOrder(message(replace(44, '150.5'))), { problem: 'order', text: /^EX_INVALID_PRICE/ });
  t.match(readNewOrder(message(replace(38, '0.5'))), {
    problem: 'order',
    reason: 13,
    text: /^EX_INVALID_QUANTITY/,
  });
});

t.test(
  'readCancel: OrigClOrdID, ClOrdID, Side, TransactTime, Symbol required; OrderID optional',
  async (t) => {
    const cancel: Field[] = [
      [41, 'c1'],
      [11, 'c2'],
      [55, 'AAPL'],
      [54, '1'],
      [60, '20261123-15:00:00.000'],
    ];
    t.same(readCancel(message(cancel)), {
      clOrdId: 'c2',
      origClOrdId: 'c1',
      orderId: undefined,
      symbol: 'AAPL',
      side: '1',
    });
    t.match(readCancel(message([...cancel, [37, '42']])), { orderId: 42 });
    t.match(readCancel(message([...cancel, [37, 'x']])), { problem: 'session', reason: 6, tag: 37 });
    t.match(readCancel(message(cancel.slice(1))), { problem: 'session', reason: 1, tag: 41 });
  },
);

t.test('reasons for refusal codes', async (t) => {
  t.equal(ordRejReason('EX_UNKNOWN_SYMBOL'), 1);
  t.equal(ordRejReason('EX_MARKET_CLOSED'), 2);
  t.equal(ordRejReason('EX_RISK_DAILY_CAP'), 3);
  t.equal(ordRejReason('EX_INSUFFICIENT_FUNDS'), 3);
  t.equal(ordRejReason('EX_INVALID_QUANTITY'), 13);
  t.equal(ordRejReason('EX_KILL_SWITCH'), 99);
  t.equal(cxlRejReason('EX_CANNOT_CANCEL_ALREADY_MATCHED'), 0);
  t.equal(cxlRejReason('EX_ORDER_NOT_FOUND'), 1);
  t.equal(cxlRejReason('EX_JOURNAL_FAILED'), 99);
});

t.test('executionReport and cancelReject encode the fields FIX 4.4 requires, in order', async (t) => {
  const body = executionReport({
    orderId: '7',
    clOrdId: 'c2',
    origClOrdId: 'c1',
    execId: 'T3',
    execType: 'F',
    ordStatus: '1',
    symbol: 'AAPL',
    side: 'sell',
    price: 150,
    quantity: 100,
    cumQty: 60,
    leavesQty: 40,
    filledNotional: 60 * 151,
    lastQty: 20,
    lastPx: 152,
    transactTime: '20261123-15:00:00.000',
  });
  const decoded = decode(frame(`35=8\x01${body}`));
  if ('garbled' in decoded) throw new Error(decoded.garbled);
  t.same(
    decoded.fields.map(([k, v]) => `${k}=${v}`).join('|'),
    '35=8|37=7|11=c2|41=c1|17=T3|150=F|39=1|55=AAPL|54=2|38=100|40=2|44=150|32=20|31=152|151=40|14=60|6=151|60=20261123-15:00:00.000',
  );
  t.equal(
    cancelReject({
      orderId: '7',
      clOrdId: 'c3',
      origClOrdId: 'c1',
      ordStatus: '2',
      reason: 0,
      text: 'too late',
    }).replaceAll('\x01', '|'),
    '37=7|11=c3|41=c1|39=2|434=1|102=0|58=too late|',
  );
});

t.test(
  'writeExecutionReport: one buffer written again and again, numbers as JavaScript writes them',
  async (t) => {
    const out = new BodyBytes();
    const report = (over: Partial<ReportFields>): ReportFields => ({
      orderId: 12_345,
      clOrdId: 'c9',
      execId: 'N12345',
      execType: '0',
      ordStatus: '0',
      symbol: 'MSFT',
      side: 'buy',
      price: 10_000,
      quantity: 3,
      cumQty: 0,
      leavesQty: 3,
      filledNotional: 0,
      transactTime: '20261128-23:40:00.000',
      ...over,
    });
    const long = report({ text: 'x'.repeat(5_000), ordRejReason: 99, statusReqId: 's1', orderId: 'NONE' });
    // Against the text built here, not against executionReport (the same writer).
    t.equal(
      bodyText(writeExecutionReport(out, long)).replaceAll('\x01', '|'),
      `37=NONE|11=c9|17=N12345|150=0|39=0|103=99|55=MSFT|54=1|38=3|40=2|44=10000|151=3|14=0|6=0|60=20261128-23:40:00.000|790=s1|58=${'x'.repeat(5_000)}|`,
      'grown for a long text',
    );
    const fill = report({ cumQty: 3, leavesQty: 0, filledNotional: 29_999, lastQty: 1, lastPx: 9_999 });
    const text = bodyText(writeExecutionReport(out, fill));
    t.equal(
      text.replaceAll('\x01', '|'),
      `37=12345|11=c9|17=N12345|150=0|39=0|55=MSFT|54=1|38=3|40=2|44=10000|32=1|31=9999|151=0|14=3|6=${29_999 / 3}|60=20261128-23:40:00.000|`,
      'a shorter one after it: nothing of the first left',
    );
    t.ok(text.includes('|6=9999.666'.replaceAll('|', '\x01')), 'a fractional AvgPx as JavaScript writes it');
    t.equal(bodyText(writeExecutionReport(out, report({ price: -5 }))).includes('\x0144=-5\x01'), true);
  },
);

t.test(
  'writeExecutionReport makes room for every string it writes, ExecType and OrdStatus too',
  async (t) => {
    // Longer than any FIX value of theirs: the room asked for must count them, or the bytes past
    // the buffer are lost (a typed array drops them) while the length still counts them.
    const execType = 'E'.repeat(700);
    const ordStatus = 'S'.repeat(700);
    const r: ReportFields = {
      orderId: 7,
      clOrdId: 'c7',
      execId: 'N7',
      execType,
      ordStatus,
      symbol: 'AAPL',
      side: 'sell',
      price: 100,
      quantity: 2,
      cumQty: 0,
      leavesQty: 2,
      filledNotional: 0,
      transactTime: '20261129-03:00:00.000',
    };
    const expected = [
      '37=7',
      '11=c7',
      '17=N7',
      `150=${execType}`,
      `39=${ordStatus}`,
      '55=AAPL',
      '54=2',
      '38=2',
      '40=2',
      '44=100',
      '151=2',
      '14=0',
      '6=0',
      '60=20261129-03:00:00.000',
    ].join('\x01');
    const body = writeExecutionReport(new BodyBytes(), r);
    t.equal(bodyText(body), `${expected}\x01`);
    t.equal(body.length, expected.length + 1);
  },
);
