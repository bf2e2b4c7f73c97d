import type { DatabaseSync } from 'node:sqlite';
import { mix32 } from '../../core/typed-arrays.ts';

/**
 * A period's distinct players, estimated by a HyperLogLog sketch that the win log keeps as it
 * writes: a replay sizes its ranking from it once instead of growing it as it goes (issue #15).
 * Counting exactly would take a set of every id on the writer's thread (hundreds of MB at 25 M
 * players) or an index of (period, user) written with every win; the sketch is 64 KB a period.
 *
 * 2^16 one-byte registers: a standard error of 1.04 / 256 = 0.41 %. A replay sized at the
 * estimate has 1.2 % of room before its table grows (see UserIdTable), about three errors.
 * The registers live in `win_sketch`, one row per register set, written in the same transaction
 * as the wins that raised them: after a crash the sketch is that of the wins on disk. Once warm,
 * almost no win raises a register (some 400,000 rows written over a month of 25 M players).
 */
export const SKETCH_REGISTERS = 1 << 16;

/** The small-range correction applies below this estimate (the standard 2.5 m). */
const SMALL_RANGE = 2.5 * SKETCH_REGISTERS;
const ALPHA = 0.7213 / (1 + 1.079 / SKETCH_REGISTERS);

export const SKETCH_SCHEMA = `CREATE TABLE IF NOT EXISTS win_sketch (
  period TEXT NOT NULL,
  register INTEGER NOT NULL,
  rank INTEGER NOT NULL,
  PRIMARY KEY (period, register)
) WITHOUT ROWID`;

/** Parameters: period, register, rank. A register only rises. */
export const RAISE_REGISTER = `INSERT INTO win_sketch (period, register, rank) VALUES (?, ?, ?)
  ON CONFLICT (period, register) DO UPDATE SET rank = MAX(rank, excluded.rank)`;

const READ_REGISTERS = 'SELECT register, rank FROM win_sketch WHERE period = ?';

/** Set by `place`: the register an id falls in and the rank it gives it (1 … 33). */
export const placed = { register: 0, rank: 0 };

/**
 * Where `id` goes in a sketch: two 32-bit hashes of its characters in one pass, the register from
 * the first's top 16 bits and the rank from the second's leading zeros (16 + 32 bits in all, so no
 * large-range correction is needed before billions of players).
 */
export function place(id: string): void {
  let a = 0x811c9dc5;
  let b = 0x2545f491;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  placed.register = mix32(a) >>> 16;
  placed.rank = Math.clz32(mix32(b ^ 0x9e3779b9)) + 1;
}

export class PlayerSketch {
  readonly registers = new Uint8Array(SKETCH_REGISTERS);

  /** Counts `id`; true when it raised a register (which then needs saving). */
  add(id: string): boolean {
    place(id);
    if (placed.rank <= this.registers[placed.register]!) return false;
    this.registers[placed.register] = placed.rank;
    return true;
  }

  /** The estimated number of distinct ids added. */
  estimate(): number {
    let sum = 0;
    let zeros = 0;
    for (const rank of this.registers) {
      sum += 2 ** -rank;
      if (rank === 0) zeros++;
    }
    const raw = (ALPHA * SKETCH_REGISTERS * SKETCH_REGISTERS) / sum;
    // Few ids leave many registers empty: linear counting is the better estimate there.
    if (raw <= SMALL_RANGE && zeros > 0) return SKETCH_REGISTERS * Math.log(SKETCH_REGISTERS / zeros);
    return raw;
  }

  /** The period's sketch as saved in `db` (empty when none was). */
  static read(db: DatabaseSync, period: string): PlayerSketch {
    const sketch = new PlayerSketch();
    const rows = db.prepare(READ_REGISTERS).all(period) as Array<{ register: number; rank: number }>;
    for (const { register, rank } of rows) sketch.registers[register] = rank;
    return sketch;
  }
}
