import t from 'tap';
import { compareReaders, mutatedTexts } from '../src/mutated-texts.ts';
import { seededRandom } from '../src/seeded-random.ts';

t.test('the same stream gives the same near misses, each a seed edited 1 to 3 times', async (t) => {
  const seeds = ['{"a":1}', '{"b":22}'];
  const texts = [...mutatedTexts(seeds, 'xy', seededRandom(5), 500)];
  t.same([...mutatedTexts(seeds, 'xy', seededRandom(5), 500)], texts, 'the same texts again');
  t.equal(texts.length, 500);
  for (const text of texts) {
    t.ok(/^[{}"ab:12xy]*$/.test(text), `${text}: seed characters and the alphabet's only`);
    const lengths = seeds.map((seed) => Math.abs(seed.length - text.length));
    t.ok(Math.min(...lengths) <= 3, `${text}: within 3 edits of a seed's length`);
  }
  t.ok(
    texts.some((text) => !seeds.includes(text)),
    'edited',
  );
});

t.test('compareReaders counts what the fast reader takes and names the first text read otherwise', (t) => {
  const general = (text: string): number | undefined => (/^\d+$/.test(text) ? Number(text) : undefined);
  const agreeing = compareReaders(['1', 'x', '22'], general, general);
  t.same(agreeing, { taken: 2 });
  const wrong = (text: string): number | undefined => (text === 'x' ? undefined : text.length);
  const found = compareReaders(['1', 'x', '22', '333'], wrong, general);
  t.same(found, { taken: 2, disagreement: { text: '22', fast: 2, general: 22 } });
  t.end();
});
