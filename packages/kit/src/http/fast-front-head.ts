/**
 * The request head the plain-HTTP front (fast-front.ts) takes for itself, and nothing else: an
 * HTTP/1.1 GET or POST with an origin-form target, one Host, at most one Authorization, Content-Type
 * and Content-Length (a POST must have its length; a GET has none), and no header that changes how
 * the message is framed or handled (Transfer-Encoding, Content-Encoding, Expect, Upgrade, a
 * Connection other than keep-alive). Every line must be plain visible ASCII. Whatever does not fit
 * is undefined: the connection then goes to node:http, which parses that request from its first
 * byte and answers it (including the errors) as it always has. Being strict here costs nothing.
 */

/** What the front needs of a request head it takes. */
export interface FrontHead {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  readonly contentLength: number | undefined;
}

// Request line: the two methods, an origin-form target of visible ASCII, exactly HTTP/1.1.
const REQUEST_LINE = /^(GET|POST) (\/[!-~]*) HTTP\/1\.1$/;
// A header line: a token, a colon, optional white space and a value of visible ASCII, space or tab.
const HEADER_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*([ \t!-~]*?)[ \t]*$/;
const DIGITS = /^[0-9]{1,9}$/;

/**
 * Reads the head (`text`: the bytes up to, not including, the blank line, as latin1). `maxUrlLength`
 * as the edge's 414: a longer target is node:http's to refuse.
 */
export function readFrontHead(text: string, maxUrlLength: number): FrontHead | undefined {
  const lines = text.split('\r\n');
  const request = REQUEST_LINE.exec(lines[0]!);
  if (request === null) return undefined;
  const method = request[1] as 'GET' | 'POST';
  const url = request[2]!;
  if (url.length > maxUrlLength) return undefined;
  let hosts = 0;
  let authorization: string | undefined;
  let contentType: string | undefined;
  let contentLength: string | undefined;
  for (let i = 1; i < lines.length; i++) {
    const header = HEADER_LINE.exec(lines[i]!);
    if (header === null) return undefined;
    const value = header[2]!;
    switch (header[1]!.toLowerCase()) {
      case 'host':
        if (++hosts > 1) return undefined;
        break;
      case 'authorization':
        if (authorization !== undefined) return undefined;
        authorization = value;
        break;
      case 'content-type':
        if (contentType !== undefined) return undefined;
        contentType = value;
        break;
      case 'content-length':
        if (contentLength !== undefined || !DIGITS.test(value)) return undefined;
        contentLength = value;
        break;
      case 'connection':
        if (value.toLowerCase() !== 'keep-alive') return undefined;
        break;
      case 'transfer-encoding':
      case 'content-encoding':
      case 'expect':
      case 'upgrade':
        return undefined;
      default:
        break;
    }
  }
  if (hosts !== 1) return undefined;
  const length = contentLength === undefined ? undefined : Number(contentLength);
  if (method === 'POST' ? length === undefined : length !== undefined) return undefined;
  return { method, url, authorization, contentType, contentLength: length };
}
