import t from 'tap';
import { checksum, decode, detached, encode, FrameReader, SOH } from '../../src/fix/codec.ts';

const bar = (s: string) => s.replaceAll('|', SOH);

// A Heartbeat worked by hand: body "35=0|49=A|56=B|34=2|52=20260101-00:00:00.000|" is 45 bytes.
const HEARTBEAT = bar('8=FIX.4.4|9=45|35=0|49=A|56=B|34=2|52=20260101-00:00:00.000|');

t.test(
  'encode: body length counts 35= up to the SOH before 10=, checksum is the byte sum mod 256',
  async (t) => {
    const frame = encode([
      [35, '0'],
      [49, 'A'],
      [56, 'B'],
      [34, '2'],
      [52, '20260101-00:00:00.000'],
    ]);
    t.equal(frame, `${HEARTBEAT}10=${checksum(HEARTBEAT)}${SOH}`);
    let sum = 0;
    for (const c of HEARTBEAT) sum += c.charCodeAt(0);
    t.equal(checksum(HEARTBEAT), String(sum % 256).padStart(3, '0'));
    t.equal(checksum('\x01'), '001', 'three digits, zero-padded');
  },
);

t.test('decode reads what encode wrote, repeated tags in order', async (t) => {
  const frame = encode([
    [35, 'D'],
    [11, 'c1'],
    [453, '2'],
    [448, 'X'],
    [448, 'Y'],
  ]);
  const message = decode(frame);
  if ('garbled' in message) throw new Error(message.garbled);
  t.same(
    message.fields.map(([tag, value]) => `${tag}=${value}`),
    ['35=D', '11=c1', '453=2', '448=X', '448=Y'],
  );
  t.equal(message.byTag.get(448), 'X', 'byTag keeps the first of a repeating group');
});

t.test('decode finds every kind of garbling', async (t) => {
  const good = encode([
    [35, '0'],
    [34, '1'],
  ]);
  const cases: Record<string, string> = {
    'bad checksum': good.replace(/10=\d{3}/, '10=000'),
    'bad body length': (() => {
      const head = bar('8=FIX.4.4|9=99|35=0|34=1|');
      return `${head}10=${checksum(head)}${SOH}`;
    })(),
    'no checksum field': good.slice(0, good.indexOf(`${SOH}10=`) + 1),
    'is not FIX.4.4': (() => {
      const head = bar('8=FIX.4.2|9=10|35=0|34=1|');
      return `${head}10=${checksum(head)}${SOH}`;
    })(),
    'not tag=value': (() => {
      const head = bar('8=FIX.4.4|9=11|35=0|x4=1|');
      return `${head}10=${checksum(head)}${SOH}`;
    })(),
  };
  for (const [name, frame] of Object.entries(cases)) {
    const result = decode(frame);
    t.ok('garbled' in result, `${name}: ${JSON.stringify(result)}`);
  }
});

t.test('FrameReader cuts a stream at frame ends, across chunks and noise', async (t) => {
  const a = encode([
    [35, '0'],
    [34, '1'],
  ]);
  const b = encode([
    [35, '1'],
    [34, '2'],
    [112, 'x'],
  ]);
  const stream = `noise${a}${b}`;
  for (let size = 1; size <= stream.length; size++) {
    const reader = new FrameReader();
    const frames: string[] = [];
    for (let i = 0; i < stream.length; i += size) frames.push(...reader.push(stream.slice(i, i + size)));
    t.same(frames, [a, b], `chunks of ${size} bytes`);
  }
  t.same(new FrameReader().push(a + b), [a, b], 'two frames in one chunk');
});

t.test('FrameReader refuses a header that never ends, and drops noise that is no frame', async (t) => {
  const reader = new FrameReader();
  reader.push(bar('8=FIX.4.4|9='));
  t.throws(() => reader.push('1'.repeat(70_000)), /64 KiB/);
  const noisy = new FrameReader();
  t.same(noisy.push('y'.repeat(70_000)), [], 'noise without a frame start is not kept');
  const a = encode([[35, '0']]);
  t.same(noisy.push(a), [a]);
});

t.test('detached gives the same value', async (t) => {
  const frame = encode([
    [35, 'D'],
    [11, 'a-client-order-id-long-enough-to-be-a-slice'],
  ]);
  const message = decode(frame);
  if ('garbled' in message) throw new Error(message.garbled);
  t.equal(detached(message.byTag.get(11)!), 'a-client-order-id-long-enough-to-be-a-slice');
  t.equal(detached(''), '');
});

t.test('checksum: the byte sum mod 256 of any string, short or longer than its scratch buffer', async (t) => {
  const byCharCode = (text: string) => {
    let sum = 0;
    for (let i = 0; i < text.length; i++) sum += text.charCodeAt(i);
    return String(sum & 0xff).padStart(3, '0');
  };
  let seed = 12;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  for (let round = 0; round < 2_000; round++) {
    const length = Math.floor(random() * (round % 100 === 0 ? 5_000 : 300));
    let text = '';
    // Mostly latin1, sometimes a wider character (its low byte counts, as charCodeAt's sum mod 256).
    for (let i = 0; i < length; i++)
      text += String.fromCharCode(random() < 0.98 ? random() * 256 : random() * 0xffff);
    if (checksum(text) !== byCharCode(text)) t.fail(`differs on a string of ${length}`);
  }
  t.equal(checksum(''), '000');
  t.equal(checksum('x'.repeat(3_000)), byCharCode('x'.repeat(3_000)), 'after the scratch grew');
});

t.test(
  'decode reads tags as Number does: leading zeros, and other forms garbled or read as before',
  async (t) => {
    const tagsOf = (body: string) => {
      const head = `8=FIX.4.4${SOH}9=${body.length}${SOH}${body}`;
      const message = decode(`${head}10=${checksum(head)}${SOH}`);
      return 'garbled' in message ? message.garbled : message.fields.map(([tag]) => tag);
    };
    t.same(tagsOf(bar('35=0|0011=a|')), [35, 11]);
    t.same(tagsOf(bar('35=0|1e1=a|')), [35, 10], 'an exponent, as Number reads it');
    t.same(tagsOf(bar('35=0|1234567890=a|')), [35, 1_234_567_890], 'ten digits and more go to Number');
    t.equal(tagsOf(bar('35=0|0=a|')), 'a field is not tag=value');
    t.equal(tagsOf(bar('35=0|=a|')), 'a field is not tag=value');
    t.equal(tagsOf(bar('35=0|1.5=a|')), 'a field is not tag=value');
    t.equal(tagsOf(bar('35=0|x1=a|')), 'a field is not tag=value');
  },
);
