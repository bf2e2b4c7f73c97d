import fc from 'fast-check';
import type { InputEvent } from '../../src/core/engine.ts';
import { SPEC } from './helpers.ts';

/**
 * Random input streams for the model-based tests, as fast-check arbitraries so that a failure
 * shrinks to a short stream and reports the seed that replays it.
 *
 * A stream is generated as a list of steps and then turned into events: ids are handed out in
 * order, cancels and reused ids point back at earlier ids (live or gone), and seq runs on except
 * for the gap steps, which send a wrong seq that the engine must reject without consuming it.
 */
type Step =
  | { readonly kind: 'new'; readonly buy: boolean; readonly offset: number; readonly lots: number }
  | { readonly kind: 'bad'; readonly change: Partial<Record<keyof InputEvent, unknown>> }
  | { readonly kind: 'cancel'; readonly pick: number; readonly unknown: boolean }
  | { readonly kind: 'reuse'; readonly pick: number; readonly buy: boolean }
  | { readonly kind: 'type'; readonly type: string }
  | { readonly kind: 'gap'; readonly delta: number };

const MID = 1_500;

/** Changes that make a NEW order invalid (against SPEC: tick 5, lot 10, band 1,000–2,000). */
const BAD_CHANGES: ReadonlyArray<Partial<Record<keyof InputEvent, unknown>>> = [
  { price: 1_502 }, // off the tick grid
  { price: 1_500.5 },
  { price: 0 },
  { price: -1_500 },
  { price: 995 }, // below the band
  { price: 2_005 }, // above the band
  { price: undefined },
  { quantity: 0 },
  { quantity: -10 },
  { quantity: 15 }, // not whole lots
  { quantity: 10.5 },
  { quantity: 1_000_010 }, // above the maximum
  { quantity: 2 ** 60 }, // not a safe integer
  { symbol: 'MSFT' },
  { symbol: undefined },
  { side: 'hold' },
  { orderId: -1 },
  { orderId: 1.5 },
];

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 60,
    // Buys and sells over overlapping ranges around the mid: many rest, many cross.
    arbitrary: fc.record({
      kind: fc.constant('new' as const),
      buy: fc.boolean(),
      offset: fc.integer({ min: -5, max: 5 }),
      lots: fc.integer({ min: 1, max: 8 }),
    }),
  },
  {
    weight: 22,
    arbitrary: fc.record({
      kind: fc.constant('cancel' as const),
      pick: fc.nat(),
      // One cancel in ten names an id never given.
      unknown: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    }),
  },
  {
    weight: 8,
    arbitrary: fc.record({ kind: fc.constant('bad' as const), change: fc.constantFrom(...BAD_CHANGES) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('reuse' as const), pick: fc.nat(), buy: fc.boolean() }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('type' as const),
      type: fc.constantFrom('AMEND', 'new', 'cancel', '', 'NEW '),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('gap' as const),
      delta: fc.constantFrom(-2, -1, 1, 2, 5),
    }),
  },
);

/** Turns steps into the events they stand for. */
export function toStream(steps: readonly Step[]): InputEvent[] {
  const events: InputEvent[] = [];
  const ids: number[] = [];
  let seq = 1;
  let nextId = 1;
  const earlier = (pick: number) => (ids.length === 0 ? 1 : ids[pick % ids.length]!);
  for (const s of steps) {
    const symbol = SPEC.symbol;
    switch (s.kind) {
      case 'new': {
        const orderId = nextId++;
        ids.push(orderId);
        const price = MID + s.offset * SPEC.tickSize;
        events.push({
          seq: seq++,
          type: 'NEW',
          symbol,
          orderId,
          side: s.buy ? 'buy' : 'sell',
          price,
          quantity: s.lots * 10,
        });
        break;
      }
      case 'bad': {
        const event = {
          seq: seq++,
          type: 'NEW',
          symbol,
          orderId: nextId++,
          side: 'buy',
          price: MID,
          quantity: 10,
        };
        events.push({ ...event, ...s.change } as InputEvent);
        break;
      }
      case 'cancel':
        // A cancel without a symbol is allowed: the id names the order.
        events.push({
          seq: seq++,
          type: 'CANCEL',
          ...(s.pick % 3 === 0 ? {} : { symbol }),
          orderId: s.unknown ? 1_000_000 + (s.pick % 1_000) : earlier(s.pick),
        });
        break;
      case 'reuse':
        // An id given before: INVALID_ORDER while that order rests, a fresh order once it is gone.
        events.push({
          seq: seq++,
          type: 'NEW',
          symbol,
          orderId: earlier(s.pick),
          side: s.buy ? 'buy' : 'sell',
          price: MID,
          quantity: 20,
        });
        break;
      case 'type':
        events.push({ seq: seq++, type: s.type, symbol, orderId: earlier(0) });
        break;
      case 'gap':
        events.push({ seq: seq + s.delta, type: 'CANCEL', symbol, orderId: earlier(0) });
        break;
    }
  }
  return events;
}

/** Streams of 1 to `maxSteps` steps. */
export const streamArbitrary = (maxSteps = 200): fc.Arbitrary<InputEvent[]> =>
  fc.array(step, { minLength: 1, maxLength: maxSteps, size: 'max' }).map(toStream);

/** One long stream, fixed by its seed (for the determinism and restore tests). */
export function sampleStream(seed: number, steps: number): InputEvent[] {
  const [stream] = fc.sample(fc.array(step, { minLength: steps, maxLength: steps }).map(toStream), {
    seed,
    numRuns: 1,
  });
  return stream!;
}
