import type { InputEvent } from '../../src/core/engine.ts';
import { SPEC } from './helpers.ts';

/** A small seeded generator (mulberry32): the same seed always gives the same stream. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A random stream of everything the engine must handle: new orders around a moving mid price
 * (crossing and not, partial fills), cancels of live and gone orders, bad prices and quantities,
 * unknown symbols and message types, and gaps or repeats in seq.
 */
export function randomStream(seed: number, length: number): InputEvent[] {
  const random = rng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const events: InputEvent[] = [];
  let seq = 1;
  let nextId = 1;
  const ids: number[] = [];
  const mid = 1_500 + Math.floor(random() * 40) * 5;
  for (let i = 0; i < length; i++) {
    const roll = random();
    let event: InputEvent;
    if (roll < 0.62) {
      const side = random() < 0.5 ? 'buy' : 'sell';
      const offset = (Math.floor(random() * 9) - 3) * 5; // some cross, most rest near the touch
      const price = side === 'buy' ? mid + offset - 10 : mid - offset + 10;
      const orderId = nextId++;
      ids.push(orderId);
      event = {
        seq,
        type: 'NEW',
        symbol: SPEC.symbol,
        orderId,
        side,
        price,
        quantity: (1 + Math.floor(random() * 8)) * 10,
      };
    } else if (roll < 0.85 && ids.length > 0) {
      event = { seq, type: 'CANCEL', symbol: SPEC.symbol, orderId: pick(ids) };
    } else if (roll < 0.93) {
      const bad = pick([
        { price: 1_502 },
        { price: 0 },
        { quantity: 15 },
        { quantity: -10 },
        { symbol: 'MSFT' },
        { side: 'x' },
        { price: 9_999 },
      ]);
      event = {
        seq,
        type: 'NEW',
        symbol: SPEC.symbol,
        orderId: nextId++,
        side: 'buy',
        price: mid,
        quantity: 10,
        ...bad,
      };
    } else if (roll < 0.96) {
      event = {
        seq,
        type: pick(['AMEND', 'new', '']),
        symbol: SPEC.symbol,
        orderId: pick(ids.length ? ids : [1]),
      };
    } else {
      // A gap or a repeat: rejected, and the next event uses the expected seq again.
      events.push({
        seq: seq + (random() < 0.5 ? 1 + Math.floor(random() * 3) : -1),
        type: 'CANCEL',
        orderId: 1,
      });
      continue;
    }
    events.push(event);
    seq++;
  }
  return events;
}
