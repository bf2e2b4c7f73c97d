/**
 * What a user id and a match id may hold: the one source for the schemas' patterns (schemas.ts)
 * and the plain body's reader (plain-score-bytes.ts), which checks them byte by byte.
 */

/** A user id: 1 to this many characters of USER_ID_CHARACTERS. */
export const USER_ID_MAX_LENGTH = 64;
/** A user id's characters, as a regular expression's character class: A–Z, a–z, 0–9, _ and -. */
export const USER_ID_CHARACTERS = 'A-Za-z0-9_-';

/** A match id: 1 to this many characters of MATCH_ID_CHARACTERS. */
export const MATCH_ID_MAX_LENGTH = 128;
/** A match id's characters, as a character class: printable ASCII but the space. */
export const MATCH_ID_CHARACTERS = '\\x21-\\x7e';

/** `^[characters]{1,max}$`, a schema's pattern. */
export function idPattern(characters: string, maxLength: number): string {
  return `^[${characters}]{1,${maxLength}}$`;
}
