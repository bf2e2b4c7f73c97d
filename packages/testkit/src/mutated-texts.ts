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
