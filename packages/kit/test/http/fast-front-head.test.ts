import t from 'tap';
import { readFrontHead } from '../../src/http/fast-front-head.ts';

const head = (...lines: string[]) => lines.join('\r\n');
const read = (text: string) => readFrontHead(text, 64);

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
  };
  for (const [name, text] of Object.entries(cases)) t.equal(read(text), undefined, name);
});
