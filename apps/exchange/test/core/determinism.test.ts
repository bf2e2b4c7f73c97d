import { createHash } from 'node:crypto';
import t from 'tap';
import { MatchingEngine, type EngineSnapshot } from '../../src/core/engine.ts';
import { toEvents } from '../../src/core/output.ts';
import { SPEC } from './helpers.ts';
import { sampleStream } from './stream.ts';

/** Runs events through an engine and returns its output as JSON lines. */
function run(engine: MatchingEngine, events: ReturnType<typeof sampleStream>): string {
  const lines: string[] = [];
  for (const event of events) {
    engine.out.clear();
    engine.process(event);
    for (const e of toEvents(SPEC.symbol, engine.out)) lines.push(JSON.stringify(e));
  }
  return lines.join('\n');
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

t.test('the same sequenced input yields byte-identical output', async (t) => {
  const stream = sampleStream(7, 5_000);
  const first = run(new MatchingEngine(SPEC), stream);
  const second = run(new MatchingEngine(SPEC), stream);
  t.ok(first.length > 0);
  t.equal(sha(second), sha(first));
});

t.test('snapshot at any sequence, restore, replay the rest: equals a straight run', async (t) => {
  const stream = sampleStream(11, 3_000);
  const straight = new MatchingEngine(SPEC);
  const straightOut = run(straight, stream);
  for (const cut of [0, 1, 17, 500, 1_234, 2_999, 3_000]) {
    const first = new MatchingEngine(SPEC);
    const before = run(first, stream.slice(0, cut));
    // Through JSON, as a snapshot is stored.
    const snapshot = JSON.parse(JSON.stringify(first.snapshot())) as EngineSnapshot;
    const restored = MatchingEngine.restore(snapshot);
    const after = run(restored, stream.slice(cut));
    t.equal(
      sha([before, after].filter(Boolean).join('\n')),
      sha(straightOut),
      `cut at event ${cut}: same output`,
    );
    t.same(restored.snapshot(), straight.snapshot(), `cut at event ${cut}: same book`);
  }
});
