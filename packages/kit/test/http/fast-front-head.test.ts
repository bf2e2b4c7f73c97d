import t from 'tap';
import { seededRandom } from '@tessera/testkit';
import { readFrontHead, type FrontHead } from '../../src/http/fast-front-head.ts';

const head = (...lines: string[]) => lines.join('\r\n');
// As the front calls it: the head's bytes, the blank line after them.
const read = (text: string) => {
  const bytes = Buffer.from(`${text}\r\n\r\n`, 'latin1');
  return readFrontHead(bytes, bytes.length - 4, 64);
};

t.test('a plain GET and a plain POST are the front’s', async (t) => {
  t.same(read(head('GET /v1/scores/a?x=1 HTTP/1.1', 'Host: h', 'Authorization: Bearer abc')), {
    method: 'GET',
    url: '/v1/scores/a?x=1',
    authorization: 'Bearer abc',
    contentType: undefined,
    contentLength: undefined,
  });
  t.same(
    read(head('POST /v1/order HTTP/1.1', 'host: h', 'content-type:application/json', 'Content-Length: 12  ')),
    {
      method: 'POST',
      url: '/v1/order',
      authorization: undefined,
      contentType: 'application/json',
      contentLength: 12,
    },
  );
});

t.test('headers the front does not need are read past, whatever their case', async (t) => {
  const read1 = read(
    head('GET / HTTP/1.1', 'HOST: h', 'Accept: */*', 'User-Agent: x/1', 'CONNECTION: Keep-Alive'),
  );
  t.equal(read1?.url, '/');
});

t.test('anything not plainly a fast request is left to node:http', async (t) => {
  const cases: Record<string, string> = {
    'another method': head('PUT / HTTP/1.1', 'Host: h'),
    HEAD: head('HEAD / HTTP/1.1', 'Host: h'),
    'HTTP/1.0': head('GET / HTTP/1.0', 'Host: h'),
    'an absolute-form target': head('GET http://h/ HTTP/1.1', 'Host: h'),
    'an asterisk target': head('GET * HTTP/1.1', 'Host: h'),
    'a space in the target': head('GET /a b HTTP/1.1', 'Host: h'),
    'a target longer than the limit': head(`GET /${'a'.repeat(64)} HTTP/1.1`, 'Host: h'),
    'no Host': head('GET / HTTP/1.1'),
    'two Hosts': head('GET / HTTP/1.1', 'Host: h', 'Host: i'),
    'two Authorizations': head('GET / HTTP/1.1', 'Host: h', 'Authorization: a', 'authorization: b'),
    'two Content-Types': head(
      'POST / HTTP/1.1',
      'Host: h',
      'Content-Type: a',
      'content-type: b',
      'Content-Length: 1',
    ),
    'two Content-Lengths': head('POST / HTTP/1.1', 'Host: h', 'Content-Length: 1', 'Content-Length: 1'),
    'a length that is not digits': head('POST / HTTP/1.1', 'Host: h', 'Content-Length: +1'),
    'a POST without a length': head('POST / HTTP/1.1', 'Host: h'),
    'a GET with a length': head('GET / HTTP/1.1', 'Host: h', 'Content-Length: 0'),
    'Transfer-Encoding': head(
      'POST / HTTP/1.1',
      'Host: h',
      'Content-Length: 1',
      'Transfer-Encoding: chunked',
    ),
    'Content-Encoding': head('POST / HTTP/1.1', 'Host: h', 'Content-Length: 1', 'Content-Encoding: gzip'),
    Expect: head('POST / HTTP/1.1', 'Host: h', 'Content-Length: 1', 'Expect: 100-continue'),
    Upgrade: head('GET / HTTP/1.1', 'Host: h', 'Upgrade: websocket', 'Connection: keep-alive'),
    'Connection: close': head('GET / HTTP/1.1', 'Host: h', 'Connection: close'),
    'Connection: upgrade': head('GET / HTTP/1.1', 'Host: h', 'Connection: upgrade'),
    'a folded header line': head('GET / HTTP/1.1', 'Host: h', 'X-A: 1', ' 2'),
    'a header name with a space': head('GET / HTTP/1.1', 'Host: h', 'X A: 1'),
    'white space before the colon': head('GET / HTTP/1.1', 'Host : h'),
    'a control character in a value': head('GET / HTTP/1.1', 'Host: h', 'X-A: a\u0001b'),
    'a byte above ASCII in a value': head('GET / HTTP/1.1', 'Host: h', 'X-A: caf\u00e9'),
    'a bare LF inside the head': head('GET / HTTP/1.1', 'Host: h\nX-A: 1'),
    'an empty line': head('GET / HTTP/1.1', '', 'Host: h'),
    'Proxy-Connection (node:http obeys its close)': head(
      'GET / HTTP/1.1',
      'Host: h',
      'Proxy-Connection: close',
    ),
    'more header lines than a client sends': head(
      'GET / HTTP/1.1',
      'Host: h',
      ...Array<string>(100).fill('a: 1'),
    ),
  };
  for (const [name, text] of Object.entries(cases)) t.equal(read(text), undefined, name);
});

/**
 * The first reader, the rules as regular expressions over the head as latin1 text: the model the
 * byte reader must equal on every head, including the ones it must refuse.
 */
const REQUEST_LINE = /^(GET|POST) (\/[!-~]*) HTTP\/1\.1$/;
const HEADER_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*([ \t!-~]*?)[ \t]*$/;
const DIGITS = /^[0-9]{1,9}$/;
function modelHead(text: string, maxUrlLength: number): FrontHead | undefined {
  const lines = text.split('\r\n');
  const request = REQUEST_LINE.exec(lines[0]!);
  if (request === null || request[2]!.length > maxUrlLength) return undefined;
  let hosts = 0;
  let authorization: string | undefined;
  let contentType: string | undefined;
  let contentLength: string | undefined;
  for (const line of lines.slice(1)) {
    const header = HEADER_LINE.exec(line);
    if (header === null) return undefined;
    const value = header[2]!;
    const name = header[1]!.toLowerCase();
    if (name === 'host' && ++hosts > 1) return undefined;
    if (name === 'authorization') {
      if (authorization !== undefined) return undefined;
      authorization = value;
    }
    if (name === 'content-type') {
      if (contentType !== undefined) return undefined;
      contentType = value;
    }
    if (name === 'content-length') {
      if (contentLength !== undefined || !DIGITS.test(value)) return undefined;
      contentLength = value;
    }
    if (name === 'connection' && value.toLowerCase() !== 'keep-alive') return undefined;
    if (['transfer-encoding', 'content-encoding', 'expect', 'upgrade', 'proxy-connection'].includes(name))
      return undefined;
  }
  const length = contentLength === undefined ? undefined : Number(contentLength);
  if (hosts !== 1 || (request[1] === 'POST' ? length === undefined : length !== undefined)) return undefined;
  const method = request[1] as 'GET' | 'POST';
  return { method, url: request[2]!, authorization, contentType, contentLength: length };
}

t.test('the byte reader equals the regular-expression model on 20,000 random heads', async (t) => {
  const random = seededRandom(20261128);
  const pick = <T>(items: readonly T[]): T => items[random(items.length)]!;
  const requestLines = [
    'GET / HTTP/1.1',
    'POST /v1/scores HTTP/1.1',
    'GET /v1/scores/p1?x=1 HTTP/1.1',
    `GET /${'a'.repeat(63)} HTTP/1.1`,
    `GET /${'a'.repeat(64)} HTTP/1.1`,
    'PUT / HTTP/1.1',
    'get / HTTP/1.1',
    'GET / HTTP/1.0',
    'GET /a b HTTP/1.1',
    'GET  / HTTP/1.1',
    'GET / HTTP/1.1 ',
    'GET /caf\u00e9 HTTP/1.1',
    'POST * HTTP/1.1',
  ];
  const names = [
    'Host',
    'host',
    'HOST',
    'Authorization',
    'authorization',
    'Content-Type',
    'content-TYPE',
    'Content-Length',
    'content-length',
    'Connection',
    'Transfer-Encoding',
    'Content-Encoding',
    'Expect',
    'Upgrade',
    'Proxy-Connection',
    'X-A',
    'X A',
    'Host ',
    '',
    'Hos',
    'Hostt',
    'Content_Length',
    'Accept',
  ];
  const values = [
    'h',
    ' 12 ',
    '12',
    '0',
    '+1',
    '123456789',
    '1234567890',
    'keep-alive',
    'Keep-Alive',
    ' KEEP-ALIVE\t',
    'close',
    'a\tb',
    'caf\u00e9',
    'a\u0001b',
    'a\rb',
    'a\nb',
    '',
    ' ',
    '\t',
    'Bearer abc',
    'application/json',
    'a\u007fb',
    '1 2',
  ];
  let taken = 0;
  for (let i = 0; i < 20_000; i++) {
    const lines = [pick(requestLines)];
    for (let n = random(6); n > 0; n--) {
      const line = random(20) === 0 ? pick(values) : `${pick(names)}:${pick(values)}`;
      lines.push(line);
    }
    // The front's own head always has a Host: most heads get one, so that the rest decides.
    if (random(4) !== 0) lines.splice(1 + random(lines.length), 0, 'Host: h');
    const text = lines.join(random(30) === 0 ? '\n' : '\r\n');
    // The head ends at the first blank line: a line that is empty there ends it early, as in the front.
    const bytes = Buffer.from(`${text}\r\n\r\n`, 'latin1');
    const end = bytes.indexOf('\r\n\r\n');
    const expected = modelHead(bytes.toString('latin1', 0, end), 64);
    if (expected !== undefined) taken++;
    const got = readFrontHead(bytes, end, 64);
    if (JSON.stringify(got) !== JSON.stringify(expected)) {
      t.fail(`differs on ${JSON.stringify(text)}: ${JSON.stringify(got)} vs ${JSON.stringify(expected)}`);
      return;
    }
  }
  t.pass('every head read as the model reads it');
  // Not a vacuous comparison: a good share of the heads is taken.
  t.ok(taken > 500, `${taken} heads taken`);
});
