/**
 * The engine's codes, numeric on the hot path, named at the edges (spec/exchange.md, "Errors").
 * Plain constants rather than enums: the code base is erasable TypeScript.
 */

/** Message types of inbound events. */
export const MSG_NEW = 1;
export const MSG_CANCEL = 2;

export const SIDE_BUY = 0;
export const SIDE_SELL = 1;
export type SideCode = typeof SIDE_BUY | typeof SIDE_SELL;

/** Results and rejects, with the spec's names. */
export const RESULT = {
  MATCH_SUCCESS: 1,
  CANCEL_SUCCESS: 2,
  OUT_OF_ORDER: 3,
  INVALID_ORDER: 4,
  INVALID_MSG_TYPE: 5,
  CANNOT_CANCEL_ALREADY_MATCHED: 6,
} as const;
export type ResultName = keyof typeof RESULT;
export type ResultCode = (typeof RESULT)[ResultName];

/**
 * What `submit` returns for a NEW order that was accepted and rests without matching. Not one of
 * the spec's results (the spec names none for it), so it stays outside the table.
 */
export const ACCEPTED = 0;

const RESULT_NAMES = new Map<number, ResultName>(
  Object.entries(RESULT).map(([name, code]) => [code, name as ResultName]),
);

export function resultName(code: number): ResultName {
  const name = RESULT_NAMES.get(code);
  if (name === undefined) throw new RangeError(`unknown result code ${code}`);
  return name;
}

/** Kinds of output records (see output.ts for their fields). */
export const OUT_ACCEPTED = 1;
export const OUT_EXECUTION = 2;
export const OUT_COMPLETED = 3;
export const OUT_CANCELED = 4;
export const OUT_REJECTED = 5;
export const OUT_LEVEL = 6;
