import t from 'tap';
import { MatchingEngine } from '../../src/core/engine.ts';
import { LadderOrderBook } from '../../src/core/ladder-order-book.ts';
import { toEvents } from '../../src/core/output.ts';
import { SPEC } from './helpers.ts';
import { ReferenceOrderBook } from './reference-book.ts';
import { randomStream } from './stream.ts';

const STREAMS = Number(process.env.PROPERTY_STREAMS ?? 3_000);
const BASE_SEED = Number(process.env.PROPERTY_SEED ?? 20261122);

function bookState(engine: MatchingEngine): string {
  const levels: number[][] = [[], []];
  for (const side of [0, 1] as const) {
    engine.book.forEachLevel(side, (price, volume, orders) => levels[side]!.push(price, volume, orders));
  }
  const orders: number[] = [];
  engine.book.forEachOrder((...order) => orders.push(...order));
  return JSON.stringify([levels, orders, engine.book.bestBid(), engine.book.bestAsk(), engine.book.size]);
}

t.test(
  `the engine agrees with the reference model after every event (${STREAMS} random streams)`,
  async (t) => {
    t.comment(`base seed ${BASE_SEED} (stream i uses seed ${BASE_SEED} + i; set PROPERTY_SEED to replay)`);
    let events = 0;
    for (let i = 0; i < STREAMS; i++) {
      const seed = BASE_SEED + i;
      const fast = new MatchingEngine(SPEC, { book: (s) => new LadderOrderBook(s) });
      const model = new MatchingEngine(SPEC, { book: (s) => new ReferenceOrderBook(s) });
      const stream = randomStream(seed, 40 + (i % 160));
      for (let k = 0; k < stream.length; k++) {
        const event = stream[k]!;
        fast.out.clear();
        model.out.clear();
        const results = [fast.process(event), model.process(event)];
        const outputs = [
          JSON.stringify(toEvents(SPEC.symbol, fast.out)),
          JSON.stringify(toEvents(SPEC.symbol, model.out)),
        ];
        const books = [bookState(fast), bookState(model)];
        if (results[0] !== results[1] || outputs[0] !== outputs[1] || books[0] !== books[1]) {
          t.fail(`seed ${seed}, event ${k}: ${JSON.stringify(event)}`, {
            results,
            engine: outputs[0],
            model: outputs[1],
            engineBook: books[0],
            modelBook: books[1],
          });
          return;
        }
        events++;
      }
    }
    t.pass(`${STREAMS} streams, ${events} events: results, outputs and books agree after every event`);
  },
);
