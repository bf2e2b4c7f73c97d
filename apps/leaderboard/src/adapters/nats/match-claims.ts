import type { KV } from '@nats-io/kv';
import type { NewWin, Win } from '../../core/win.ts';

/**
 * The durable idempotency record of match ids, beyond JetStream's de-duplication window: one KV
 * key per match id. A claim is created (atomically: the first writer wins) with the whole win
 * BEFORE the win is published, and completed with the stream sequence after the ack. So whatever
 * happens in between, one match id can only ever stand for the win in its claim — the content
 * that later retries are compared with is fixed by the claim, not by who publishes.
 */
export interface MatchClaim {
  readonly win: NewWin;
  /** When the claim was created (epoch ms): bounds when its publish may reach the stream. */
  readonly claimedAt: number;
  /** The stream sequence once the win is recorded; absent while the claim is pending. */
  readonly seq?: number;
  /** KV revision, for a compare-and-set completion. */
  readonly revision: number;
}

interface StoredClaim {
  period: string;
  userId: string;
  points: number;
  at: number;
  claimedAt: number;
  seq?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class MatchClaims {
  readonly #kv: KV;

  constructor(kv: KV) {
    this.#kv = kv;
  }

  /** Claims `matchId` for `win`; undefined when the id was claimed before (read it with `get`). */
  async create(matchId: string, win: NewWin, claimedAt: number): Promise<MatchClaim | undefined> {
    try {
      const revision = await this.#kv.create(keyOf(matchId), encode(win, claimedAt, undefined));
      return { win, claimedAt, revision };
    } catch (error) {
      // The usual cause is "wrong last sequence": someone claimed it first. Anything else
      // (the server unreachable) is told apart by reading the key.
      if ((await this.get(matchId)) !== undefined) return undefined;
      throw error;
    }
  }

  async get(matchId: string): Promise<MatchClaim | undefined> {
    const entry = await this.#kv.get(keyOf(matchId));
    if (entry === null || entry.operation !== 'PUT') return undefined;
    const stored = JSON.parse(decoder.decode(entry.value)) as StoredClaim;
    const win: NewWin = {
      period: stored.period,
      userId: stored.userId,
      points: stored.points,
      at: stored.at,
      matchId,
    };
    return stored.seq === undefined
      ? { win, claimedAt: stored.claimedAt, revision: entry.revision }
      : { win, claimedAt: stored.claimedAt, seq: stored.seq, revision: entry.revision };
  }

  /**
   * Completes a pending claim with the stream sequence. Losing the compare-and-set is fine: the
   * only other writer completes the same claim, and the stream's de-duplication (or the scan of
   * the recovery path) gave it the same sequence.
   */
  async complete(matchId: string, claim: MatchClaim, seq: number): Promise<Win> {
    try {
      await this.#kv.update(keyOf(matchId), encode(claim.win, claim.claimedAt, seq), claim.revision);
    } catch (error) {
      const now = await this.get(matchId);
      if (now?.seq === undefined) throw error;
      return { ...now.win, seq: now.seq };
    }
    return { ...claim.win, seq };
  }
}

/** KV keys allow only [-/_=.a-zA-Z0-9]; a match id is any printable ASCII, so it is encoded. */
function keyOf(matchId: string): string {
  return `m.${Buffer.from(matchId, 'utf8').toString('base64url')}`;
}

function encode(win: NewWin, claimedAt: number, seq: number | undefined): Uint8Array {
  const stored: StoredClaim = {
    period: win.period,
    userId: win.userId,
    points: win.points,
    at: win.at,
    claimedAt,
    ...(seq === undefined ? {} : { seq }),
  };
  return encoder.encode(JSON.stringify(stored));
}
