/**
 * The request head the plain-HTTP front (fast-front.ts) takes for itself, and nothing else: an
 * HTTP/1.1 GET or POST with an origin-form target, one Host, at most one Authorization, Content-Type
 * and Content-Length (a POST must have its length; a GET has none), and no header that changes how
 * the message is framed or handled (Transfer-Encoding, Content-Encoding, Expect, Upgrade, a
 * Connection other than keep-alive). Every line must be plain visible ASCII. Whatever does not fit
 * is undefined: the connection then goes to node:http, which parses that request from its first
 * byte and answers it (including the errors) as it always has. Being strict here costs nothing.
 *
 * Read byte by byte from the buffer, with no string but the three values kept: a head read as a
 * latin1 string, split into lines and matched line by line with regular expressions cost a third
 * of the front's CPU a request (the test keeps that reader as the model this one must equal).
 */

/** What the front needs of a request head it takes. */
export interface FrontHead {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  readonly contentLength: number | undefined;
}

const CR = 0x0d;
const LF = 0x0a;
const SPACE = 0x20;
const TAB = 0x09;
const COLON = 0x3a;

/** RFC 9110's tchar: the bytes a header name is made of. */
const TOKEN = new Uint8Array(256);
for (const char of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") {
  TOKEN[char.charCodeAt(0)] = 1;
}

const GET_LINE = Buffer.from('GET /', 'latin1');
const POST_LINE = Buffer.from('POST /', 'latin1');
const VERSION = Buffer.from(' HTTP/1.1', 'latin1');
const MAX_LENGTH_DIGITS = 9;
/**
 * node:http refuses a head of more than about 1,000 fields (431) whatever its size, and older
 * versions dropped the fields past 2,000: a client's own requests have a handful.
 */
const MAX_HEADER_LINES = 100;

/** The headers the front looks at (every other one is read past), as small integers. */
const Name = {
  Other: 0,
  Host: 1,
  Authorization: 2,
  ContentType: 3,
  ContentLength: 4,
  Connection: 5,
  Refused: 6,
} as const;
type Name = (typeof Name)[keyof typeof Name];

/** The text of the header value in `bytes` from `start` to `end`. */
export type ValueText = (bytes: Buffer, start: number, end: number) => string;

const latin1: ValueText = (bytes, start, end) => bytes.toString('latin1', start, end);

/** How the three values kept become text (a connection may give back its previous request's strings). */
export interface HeadTexts {
  readonly url: ValueText;
  readonly authorization: ValueText;
  readonly contentType: ValueText;
}

const LATIN1_TEXTS: HeadTexts = { url: latin1, authorization: latin1, contentType: latin1 };

/**
 * Reads the head in `bytes` up to `end`, where the `\r\n\r\n` after the last header line begins (the
 * byte at `end`, that CR, is read too: a bare CR just before it must not pass as a line end).
 * `maxUrlLength` as the edge's 414: a longer target is node:http's to refuse. So is a head of more
 * than MAX_HEADER_LINES header lines. `texts` gives the values' text.
 */
export function readFrontHead(
  bytes: Buffer,
  end: number,
  maxUrlLength: number,
  texts: HeadTexts = LATIN1_TEXTS,
): FrontHead | undefined {
  let at: number;
  let method: 'GET' | 'POST';
  if (startsWith(bytes, end, 0, GET_LINE)) {
    method = 'GET';
    at = GET_LINE.length;
  } else if (startsWith(bytes, end, 0, POST_LINE)) {
    method = 'POST';
    at = POST_LINE.length;
  } else {
    return undefined;
  }
  // An origin-form target of visible ASCII, then exactly HTTP/1.1.
  const urlStart = at - 1;
  while (at < end && bytes[at]! > SPACE && bytes[at]! < 0x7f) at++;
  const urlEnd = at;
  if (urlEnd - urlStart > maxUrlLength || !startsWith(bytes, end, at, VERSION)) return undefined;
  at += VERSION.length;

  let hosts = 0;
  let authorization: string | undefined;
  let contentType: string | undefined;
  let contentLength: number | undefined;
  let lines = 0;
  while (at < end) {
    if (bytes[at] !== CR || bytes[at + 1] !== LF || ++lines > MAX_HEADER_LINES) return undefined;
    at += 2;
    // The name: a token, then the colon (no white space before it).
    const nameStart = at;
    while (at < end && TOKEN[bytes[at]!] === 1) at++;
    if (at === nameStart || at === end || bytes[at] !== COLON) return undefined;
    const name = nameOf(bytes, nameStart, at);
    at++;
    // The value: visible ASCII, spaces and tabs, without the white space around it.
    while (at < end && (bytes[at] === SPACE || bytes[at] === TAB)) at++;
    const valueStart = at;
    let valueEnd = at;
    for (; at < end; at++) {
      const byte = bytes[at]!;
      if (byte === CR) break;
      if (byte > SPACE && byte < 0x7f) valueEnd = at + 1;
      else if (byte !== SPACE && byte !== TAB) return undefined;
    }
    switch (name) {
      case Name.Other:
        break;
      case Name.Host:
        if (++hosts > 1) return undefined;
        break;
      case Name.Authorization:
        if (authorization !== undefined) return undefined;
        authorization = texts.authorization(bytes, valueStart, valueEnd);
        break;
      case Name.ContentType:
        if (contentType !== undefined) return undefined;
        contentType = texts.contentType(bytes, valueStart, valueEnd);
        break;
      case Name.ContentLength:
        if (contentLength !== undefined) return undefined;
        contentLength = digitsAt(bytes, valueStart, valueEnd);
        if (contentLength === undefined) return undefined;
        break;
      case Name.Connection:
        if (!equalsLower(bytes, valueStart, valueEnd, 'keep-alive')) return undefined;
        break;
      case Name.Refused:
        return undefined;
    }
  }
  if (hosts !== 1) return undefined;
  if (method === 'POST' ? contentLength === undefined : contentLength !== undefined) return undefined;
  return {
    method,
    url: texts.url(bytes, urlStart, urlEnd),
    authorization,
    contentType,
    contentLength,
  };
}

function nameOf(bytes: Buffer, start: number, end: number): Name {
  switch (end - start) {
    case 4:
      return equalsLower(bytes, start, end, 'host') ? Name.Host : Name.Other;
    case 6:
      return equalsLower(bytes, start, end, 'expect') ? Name.Refused : Name.Other;
    case 7:
      return equalsLower(bytes, start, end, 'upgrade') ? Name.Refused : Name.Other;
    case 10:
      return equalsLower(bytes, start, end, 'connection') ? Name.Connection : Name.Other;
    case 12:
      return equalsLower(bytes, start, end, 'content-type') ? Name.ContentType : Name.Other;
    case 13:
      return equalsLower(bytes, start, end, 'authorization') ? Name.Authorization : Name.Other;
    case 14:
      return equalsLower(bytes, start, end, 'content-length') ? Name.ContentLength : Name.Other;
    case 16:
      // node:http's parser reads Proxy-Connection as it reads Connection (a close it obeys).
      return equalsLower(bytes, start, end, 'content-encoding') ||
        equalsLower(bytes, start, end, 'proxy-connection')
        ? Name.Refused
        : Name.Other;
    case 17:
      return equalsLower(bytes, start, end, 'transfer-encoding') ? Name.Refused : Name.Other;
    default:
      return Name.Other;
  }
}

/**
 * Whether the bytes are `lower` in any case. `lower` holds letters and '-' only: setting bit 0x20
 * folds an ASCII capital to its small letter and leaves '-' as it is; of the other bytes only CR
 * (0x0d) folds onto one of them, and it is never among the bytes compared.
 */
function equalsLower(bytes: Buffer, start: number, end: number, lower: string): boolean {
  if (end - start !== lower.length) return false;
  for (let i = 0; i < lower.length; i++) if ((bytes[start + i]! | 0x20) !== lower.charCodeAt(i)) return false;
  return true;
}

function startsWith(bytes: Buffer, end: number, at: number, prefix: Buffer): boolean {
  if (end - at < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

/** One to nine ASCII digits as a number, else undefined. */
function digitsAt(bytes: Buffer, start: number, end: number): number | undefined {
  if (end === start || end - start > MAX_LENGTH_DIGITS) return undefined;
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = bytes[i]! - 0x30;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return value;
}
