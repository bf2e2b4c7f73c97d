/**
 * The pipeline bench's turns awaiting their group commits (BENCH_INFLIGHT): each turn's requests
 * are acknowledged when its own batch is durable, timed from their submission. The journal has
 * one batch with its writer and one gathering: from a third turn waiting on, turns share the
 * gathering batch, so the commits are counted by batch, not by turn.
 */

/** One event loop turn's requests: their submission times and the commit that makes them durable. */
interface Turn {
  readonly submitted: Float64Array;
  readonly durable: Promise<void>;
}

export class TurnAcks {
  readonly #inflight: number;
  /** Takes each request's acknowledgement time, in nanoseconds. */
  readonly #record: (nanos: number) => void;
  readonly #now: () => number;
  readonly #waiting: Turn[] = [];
  #commits = 0;
  /** The commit the last turn acknowledged waited for: a turn sharing it counts no other. */
  #lastCommit: Promise<void> | undefined;

  constructor(
    inflight: number,
    record: (nanos: number) => void,
    now: () => number = () => performance.now(),
  ) {
    if (!Number.isInteger(inflight) || inflight < 1)
      throw new RangeError(`BENCH_INFLIGHT must be an integer of 1 or more, not ${inflight}`);
    this.#inflight = inflight;
    this.#record = record;
    this.#now = now;
  }

  /** Group commits the turns waited for. */
  get commits(): number {
    return this.#commits;
  }

  /**
   * A turn's requests are in: the next turn comes once the oldest turn's commit is in, or, with
   * room for more, at once (a later turn of the event loop: this one's batch leaves first).
   */
  async add(submitted: Float64Array, durable: Promise<void>): Promise<void> {
    this.#waiting.push({ submitted, durable });
    if (this.#waiting.length >= this.#inflight) await this.#settle(this.#waiting.shift()!);
    else await new Promise((resolve) => setImmediate(resolve));
  }

  /** Every turn still waiting, acknowledged. */
  async drain(): Promise<void> {
    for (let turn = this.#waiting.shift(); turn !== undefined; turn = this.#waiting.shift())
      await this.#settle(turn);
  }

  async #settle(turn: Turn): Promise<void> {
    await turn.durable;
    if (turn.durable !== this.#lastCommit) this.#commits++;
    this.#lastCommit = turn.durable;
    const done = this.#now();
    for (const t0 of turn.submitted) this.#record(Math.round((done - t0) * 1e6));
  }
}
