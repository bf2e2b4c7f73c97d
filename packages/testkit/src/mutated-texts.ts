/**
 * `count` near misses of a format: each a seed with 1–3 random edits (a character of `alphabet`
 * inserted, or put in place of one, or one removed). The same `random` stream gives the same
 * texts, for a fast reader compared with the general one it stands in for.
 */
export function* mutatedTexts(
  seeds: readonly string[],
  alphabet: string,
  random: (n: number) => number,
  count: number,
): Generator<string> {
  for (let i = 0; i < count; i++) {
    let text = seeds[random(seeds.length)]!;
    for (let edits = 1 + random(3); edits > 0; edits--) {
      const at = random(text.length + 1);
      const kind = random(3);
      const c = alphabet[random(alphabet.length)]!;
      if (kind === 0) text = text.slice(0, at) + c + text.slice(at);
      else if (kind === 1) text = text.slice(0, at) + text.slice(at + 1);
      else text = text.slice(0, at) + c + text.slice(at + 1);
    }
    yield text;
  }
}

/** What `compareReaders` found: how many texts the fast reader took, and the first it read otherwise. */
export interface ReadersCompared<T> {
  readonly taken: number;
  readonly disagreement?: { readonly text: string; readonly fast: T; readonly general: T | undefined };
}

/**
 * Runs a fast reader and the general one it stands in for over `texts`: every text the fast one
 * takes (answers other than undefined) must be read alike by both, compared as `key` gives them.
 */
export function compareReaders<T>(
  texts: Iterable<string>,
  fast: (text: string) => T | undefined,
  general: (text: string) => T | undefined,
  key: (read: T | undefined) => string = (read) => JSON.stringify(read),
): ReadersCompared<T> {
  let taken = 0;
  for (const text of texts) {
    const read = fast(text);
    if (read === undefined) continue;
    taken++;
    const parsed = general(text);
    if (key(read) !== key(parsed)) return { taken, disagreement: { text, fast: read, general: parsed } };
  }
  return { taken };
}
