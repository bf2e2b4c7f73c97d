/**
 * A single-part message whose body postal-mime would read as it is (7bit, 8bit, binary or no
 * Content-Transfer-Encoding), restated as quoted-printable so that postal-mime decodes it to the
 * same bytes at a fraction of the cost. postal-mime 4's pass-through decoder collects a body as
 * two parts a line (the line, then "\n") and joins them in a Node `Blob`, which costs ~3–5 µs a
 * part (2.5 ms for a body of 230 short lines); its quoted-printable decoder collects the lines
 * in one 100 KB buffer, one part. Escaping every "=" as "=3D" is the exact inverse of that
 * decoder for any bytes: it writes each line as is, then "\n" unless the line ends in a soft
 * break "=", which an escaped line never does. The parsed result is therefore the same, field
 * by field (`test/mime-qp-body.test.ts` compares both parses over a corpus).
 *
 * Anything whose headers are not plainly of that kind (multipart, whose parts have headers and
 * encodings of their own; an encoding postal-mime decodes; a Content-Type or
 * Content-Transfer-Encoding written in any unusual form) is left alone: `undefined`.
 */

const LF = 0x0a;
const CR = 0x0d;
const EQUALS = 0x3d;
const SPACE = 0x20;
const TAB = 0x09;
const DIGIT_3 = 0x33;
const LETTER_D = 0x44;

/**
 * postal-mime takes the first occurrence of a content header, so this one, put first, decides
 * the encoding whatever later copies say.
 */
const QP_HEADER = Buffer.from('Content-Transfer-Encoding: quoted-printable\r\n', 'latin1');

/** postal-mime's default limit on header bytes (2 MiB), less room for the header put first. */
const HEADER_BYTES_LIMIT = 2 * 1024 * 1024 - 1024;

/** Bodies postal-mime passes through undecoded. */
const PASS_THROUGH = /^content-transfer-encoding:[ \t]*(?:7bit|8bit|binary)[ \t]*$/;
/** A plain media type at the start of the value, as postal-mime's `^multipart\/` test reads it. */
const CONTENT_TYPE =
  /^content-type:[ \t]*([a-z0-9!#$%&'*+.^_`|~-]+)\/[a-z0-9!#$%&'*+.^_`|~-]+[ \t]*(?:;.*)?$/;

/** Where the header block ends: the start of its blank line, as postal-mime splits lines. */
function headerEnd(raw: Buffer): number | undefined {
  let start = 0;
  while (start < raw.length) {
    const lf = raw.indexOf(LF, start);
    if (lf < 0) return undefined; // no body
    let blank = true;
    for (let i = start; i < lf; i++) {
      if (raw[i] !== CR) {
        blank = false;
        break;
      }
    }
    if (blank) return start;
    start = lf + 1;
  }
  return undefined;
}

/**
 * `line` without the CRs that end it (as postal-mime reads a line). A loop, not `/\r+$/`: that
 * regex retries from every CR of a run, quadratic in a header of CRs an attacker can send.
 */
function withoutTrailingCRs(line: string): string {
  let end = line.length;
  while (end > 0 && line.charCodeAt(end - 1) === CR) end--;
  return line.slice(0, end);
}

/** Whether every header line is plain about the content: single part, read as it is. */
function plainHeaders(header: string): boolean {
  const lines = header.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = withoutTrailingCRs(lines[i] ?? '').toLowerCase();
    if (line.includes('multipart')) return false;
    if (line.includes('content-transfer-encoding')) {
      const next = lines[i + 1] ?? '';
      if (!PASS_THROUGH.test(line) || next.startsWith(' ') || next.startsWith('\t')) return false;
    } else if (line.includes('content-type')) {
      if (!CONTENT_TYPE.test(line)) return false;
    }
  }
  return true;
}

/** The message restated with a quoted-printable body, or `undefined` when it is not plain. */
export function asQuotedPrintable(raw: Buffer): Buffer | undefined {
  // A message starting with folding whitespace would fold into the header put first.
  if (raw.length === 0 || raw[0] === SPACE || raw[0] === TAB) return undefined;
  const end = headerEnd(raw);
  if (end === undefined || end > HEADER_BYTES_LIMIT) return undefined;
  if (!plainHeaders(raw.toString('latin1', 0, end))) return undefined;

  // Most bodies have no "=": one native search (memchr) finds that, and the body is copied
  // whole. A JavaScript loop over every byte cost more than the rest of the restatement; with
  // "=" in the body it stays (an indexOf call per "=" costs more than a byte's turn of the loop).
  const first = raw.indexOf(EQUALS, end);
  let escapes = 0;
  if (first >= 0) for (let i = first; i < raw.length; i++) if (raw[i] === EQUALS) escapes++;
  // A buffer of its own, not a slice of Node's pool: postal-mime then reads it without a copy.
  const out = Buffer.allocUnsafeSlow(QP_HEADER.length + raw.length + 2 * escapes);
  QP_HEADER.copy(out, 0);
  raw.copy(out, QP_HEADER.length, 0, end);
  let at = QP_HEADER.length + end;
  if (escapes === 0) {
    raw.copy(out, at, end);
    return out;
  }
  at += raw.copy(out, at, end, first);
  for (let i = first; i < raw.length; i++) {
    const byte = raw[i] ?? 0;
    if (byte === EQUALS) {
      out[at++] = EQUALS;
      out[at++] = DIGIT_3;
      out[at++] = LETTER_D;
    } else out[at++] = byte;
  }
  return out;
}
