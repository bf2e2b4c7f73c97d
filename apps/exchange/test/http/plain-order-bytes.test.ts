import t from 'tap';
import { compareReaders, mutatedTexts, seededRandom } from '@tessera/testkit';
import { plainOrder } from '../../src/http/fast-order.ts';
import { plainOrderOfBytes } from '../../src/http/plain-order-bytes.ts';

/**
 * The bytes reader takes a body only as plainOrder takes JSON.parse's object of it: whatever it
 * reads equals plainOrder's answer, and whatever it declines goes to plainOrder (which may take
 * it, in another spelling, or decline it too).
 */
const ofBytes = (text: string) => plainOrderOfBytes(Buffer.from(text, 'utf8'));
const ofParse = (text: string) => {
  try {
    return plainOrder(JSON.parse(text));
  } catch {
    return undefined;
  }
};
const MAX = Number.MAX_SAFE_INTEGER;
/** Its fields in one order, whatever the body's. */
const canonical = (order: object | undefined) =>
  order === undefined ? 'undefined' : JSON.stringify(order, Object.keys(order).sort());

t.test('the usual spellings are read from the bytes, as plainOrder reads them', async (t) => {
  const taken = [
    '{"symbol":"AAPL","side":"buy","price":10000,"orderType":"limit","quantity":5}',
    '{"quantity":1,"orderType":"limit","price":1,"side":"sell","symbol":"BRK.A"}',
    '{"side":"sell","symbol":"Z","quantity":10,"price":9990,"orderType":"limit"}',
    '{"symbol":"ABCDEFGHIJ.9","side":"buy","price":9007199254740991,"orderType":"limit","quantity":9007199254740991}',
  ];
  for (const text of taken) {
    t.not(ofBytes(text), undefined, text);
    t.same(ofBytes(text), ofParse(text), text);
  }
});

t.test('other spellings and invalid bodies are declined: JSON.parse and plainOrder decide', async (t) => {
  const body = (fields: string) => `{${fields}}`;
  const rest = '"side":"buy","price":100,"orderType":"limit","quantity":5';
  const declined: Array<[string, 'plain' | 'invalid']> = [
    [`{ "symbol": "AAPL", ${rest} }`, 'plain'],
    [body(`"symbol":"AAPL" ,${rest}`), 'plain'],
    [body(`"symbol":"\\u0041APL",${rest}`), 'plain'],
    [body(`"symbol":"AAPL","side":"buy","price":100.0,"orderType":"limit","quantity":5`), 'plain'],
    [body(`"symbol":"AAPL","side":"buy","price":1e2,"orderType":"limit","quantity":5`), 'plain'],
    [body(`"symbol":"MSFT","symbol":"AAPL",${rest}`), 'plain'],
    [body(`"symbol":"AAPL",${rest}`) + '\n', 'plain'],
    [body(`"symbol":"AAPL","side":"buy","price":0100,"orderType":"limit","quantity":5`), 'invalid'],
    [body(`"symbol":"AAPL","side":"buy","price":-100,"orderType":"limit","quantity":5`), 'invalid'],
    [body(`"symbol":"AAPL","side":"buy","price":0,"orderType":"limit","quantity":5`), 'invalid'],
    [body(`"symbol":"AAPL","side":"buy","price":${MAX + 1},"orderType":"limit","quantity":5`), 'invalid'],
    [
      body(`"symbol":"AAPL","side":"buy","price":9007199254740993,"orderType":"limit","quantity":5`),
      'invalid',
    ],
    [
      body(`"symbol":"AAPL","side":"buy","price":99999999999999999,"orderType":"limit","quantity":5`),
      'invalid',
    ],
    [body(`"symbol":"AAPL","side":"buy","price":"100","orderType":"limit","quantity":5`), 'invalid'],
    [body(`"symbol":"AAPL","side":"BUY","price":100,"orderType":"limit","quantity":5`), 'invalid'],
    [body(`"symbol":"AAPL","side":"buy","price":100,"orderType":"market","quantity":5`), 'invalid'],
    [body(`"symbol":"aapl",${rest}`), 'invalid'],
    [body(`"symbol":"9AAPL",${rest}`), 'invalid'],
    [body(`"symbol":".",${rest}`), 'invalid'],
    [body(`"symbol":"",${rest}`), 'invalid'],
    [body(`"symbol":"TOOLONGSYMBOL",${rest}`), 'invalid'],
    [body(`"symbol":"ÄAPL",${rest}`), 'invalid'],
    [body(`"symbol":null,${rest}`), 'invalid'],
    [body(rest), 'invalid'],
    [body(`"symbol":"AAPL","side":"buy","price":100,"orderType":"limit"`), 'invalid'],
    [body(`"symbol":"AAPL",${rest},"clientOrderId":"c1"`), 'invalid'],
    [body(`"symbol":"AAPL",${rest},"__proto__":{}`), 'invalid'],
    [body(`"symbol":"AAPL",${rest},`), 'invalid'],
    [body(`"symbol":,${rest}`), 'invalid'],
    [body(`"symbol":"AAPL",,${rest}`), 'invalid'],
    [body(`"symbol":"AAPL","side":"buy","price":,"orderType":"limit","quantity":5`), 'invalid'],
    [body(`"symbol":"AAPL","side":"buy","price":100,"orderType":"limit","quantity":`), 'invalid'],
    [body(`"symbol":"AAPL",${rest}`) + '}', 'invalid'],
    ['{"symbol":"AAPL}', 'invalid'],
    ['{}', 'invalid'],
    ['{', 'invalid'],
    ['', 'invalid'],
    [`[${body(`"symbol":"AAPL",${rest}`)}]`, 'invalid'],
  ];
  for (const [text, kind] of declined) {
    t.equal(ofBytes(text), undefined, text);
    t.equal(ofParse(text) !== undefined, kind === 'plain', `${text}: ${kind} for JSON.parse`);
  }
});

t.test('seeded mutations of plain bodies: the bytes reader never disagrees with plainOrder', async (t) => {
  const random = seededRandom(12);
  const alphabet = '{}[]",:\\ 0123456789-+.eEABZaz_é\u0000';
  const seeds = [
    '{"symbol":"AAPL","side":"buy","price":10000,"orderType":"limit","quantity":5}',
    '{"quantity":12,"orderType":"limit","price":9990,"side":"sell","symbol":"BRK.A"}',
    '{"side":"sell","price":9007199254740991,"symbol":"M","orderType":"limit","quantity":1}',
  ];
  const { taken, disagreement } = compareReaders(
    mutatedTexts(seeds, alphabet, random, 20_000),
    ofBytes,
    ofParse,
    canonical,
  );
  t.same(disagreement, undefined, 'no body read otherwise');
  t.ok(taken > 100, `${taken} mutated bodies read from the bytes, each as plainOrder reads it`);
});

t.test('bodies built of the five keys in any order, with odd values: never read otherwise', async (t) => {
  const random = seededRandom(25);
  const pick = (values: readonly string[]) => values[random(values.length)]!;
  const good: Record<string, readonly string[]> = {
    symbol: ['"AAPL"', '"BRK.A"', '"M"', '"ABCDEFGHIJ.9"'],
    side: ['"buy"', '"sell"'],
    price: ['1', '10000', '9007199254740991'],
    orderType: ['"limit"'],
    quantity: ['1', '5', '9007199254740991'],
  };
  const keys = Object.keys(good);
  // Numbers and strings as a careless client, or an attacker, writes them.
  const odd = [
    ...['0', '01', '-0', '-1', '1.0', '1e3', '1E3', '9007199254740992', '9007199254740993', '1.', '+1'],
    ...['99999999999999999', '"1"', 'null', 'true', '[]', '{}', '[1]', '"A\\u0041"', '"\\u0041"'],
    ...['"ABCDEFGHIJKLM"', '"a"', '"9A"', '""', '"ÄA"', '"BUY"', '"market"', '"b\\u0075y"', '"limit "'],
  ];
  const space = ['', '', '', ' ', '\n', '\t'];
  let taken = 0;
  for (let i = 0; i < 20_000; i++) {
    const fields = keys.filter(() => random(12) !== 0);
    if (random(5) === 0)
      fields.splice(random(fields.length + 1), 0, pick([...keys, 'clientOrderId', 'symbo']));
    for (let j = fields.length - 1; j > 0; j--) {
      const r = random(j + 1);
      [fields[j], fields[r]] = [fields[r]!, fields[j]!];
    }
    const value = (key: string) => (random(4) !== 0 && key in good ? pick(good[key]!) : pick(odd));
    const w = () => (random(10) === 0 ? pick(space) : '');
    let text = `{${fields.map((key) => `${w()}"${key}"${w()}:${w()}${value(key)}${w()}`).join(',')}}`;
    if (random(20) === 0) text = text.slice(0, random(text.length + 1));
    const read = ofBytes(text);
    if (read === undefined) continue;
    taken++;
    if (canonical(read) !== canonical(ofParse(text))) {
      t.fail(
        `disagree on ${JSON.stringify(text)}: ${JSON.stringify(read)} vs ${JSON.stringify(ofParse(text))}`,
      );
      return;
    }
  }
  t.ok(taken > 500, `${taken} built bodies read from the bytes, each as plainOrder reads it`);
});
