import type { NewWin } from '../../core/win.ts';

/**
 * A batch of wins as it travels to the win log's writer thread: the numbers in one buffer that is
 * moved, not copied, and the text of every win in one string. Structured cloning an array of win
 * objects walked and rebuilt every object and property on both sides of the hand-over.
 */
export interface EncodedWins {
  /** Per win: points, at, then the lengths of its period, user id and match id (-1: none). */
  readonly numbers: Float64Array<ArrayBuffer>;
  /** Per win: its period, user id and match id, back to back (lengths in UTF-16 units). */
  readonly text: string;
}

const FIELDS = 5;

export function encodeWins(wins: readonly NewWin[]): EncodedWins {
  const numbers = new Float64Array(wins.length * FIELDS);
  const parts = new Array<string>(wins.length * 3);
  for (let i = 0, n = 0, p = 0; i < wins.length; i++) {
    const { period, userId, points, matchId, at } = wins[i]!;
    numbers[n++] = points;
    numbers[n++] = at;
    numbers[n++] = period.length;
    numbers[n++] = userId.length;
    numbers[n++] = matchId === undefined ? -1 : matchId.length;
    parts[p++] = period;
    parts[p++] = userId;
    parts[p++] = matchId ?? '';
  }
  return { numbers, text: parts.join('') };
}

export function decodeWins({ numbers, text }: EncodedWins): NewWin[] {
  const wins = new Array<NewWin>(numbers.length / FIELDS);
  let at = 0;
  const take = (length: number): string => text.slice(at, (at += length));
  for (let i = 0, n = 0; i < wins.length; i++, n += FIELDS) {
    const period = take(numbers[n + 2]!);
    const userId = take(numbers[n + 3]!);
    const matchLength = numbers[n + 4]!;
    const matchId = matchLength < 0 ? undefined : take(matchLength);
    wins[i] = { period, userId, points: numbers[n]!, matchId, at: numbers[n + 1]! };
  }
  return wins;
}
