import {
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
  type PubAck,
} from '@nats-io/jetstream';
import { headers as natsHeaders, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import { NO_TRACE, type TraceScope } from '@tessera/kit';
import type { Period } from '../../core/period.ts';
import type { NewWin, Win } from '../../core/win.ts';
import type { AppendResult, WinLog } from '../../ports.ts';
import { NatsDisconnectedError, type ConnectionState } from './connection-watch.ts';
import { MatchClaims, type MatchClaim } from './match-claims.ts';
import { decodeWin, encodeWin } from './win-event.ts';
import { ensureWinLogStream, type WinLogStreamOptions } from './win-log-stream.ts';

const READ_BATCH = 10_000;
const FETCH_EXPIRES_MS = 5_000;
/** How far apart the clocks of the api processes and the NATS server may be. */
const CLOCK_SKEW_MS = 2_000;
const MSG_ID = 'Nats-Msg-Id';

export interface JetStreamWinLogOptions extends WinLogStreamOptions {
  readonly now?: () => number;
  /** The connection's state: while it is down an append is refused at once instead of held. */
  readonly connection?: ConnectionState;
}

/**
 * The win log on JetStream: one stream, a subject per period, the stream sequence as `seq`.
 *
 * A win with a match id is first claimed in the KV bucket (with its content), then published with
 * the match id as `Nats-Msg-Id`, then the claim is completed with the sequence. A retry finds the
 * claim: completed, it is the original win; pending (its writer crashed or is still at work), the
 * claim's own content is published again under the same message id, which JetStream drops if the
 * first publish got through — safe as long as both publishes fall inside the de-duplication
 * window. The writer publishes only while its claim is younger than half the window (and its
 * publish times out within a quarter), so a claim older than that is settled by looking for its
 * message in the stream instead, in the short stretch of time where it could be.
 */
export class JetStreamWinLog implements WinLog {
  readonly #js: JetStreamClient;
  readonly #jsm: JetStreamManager;
  readonly #claims: MatchClaims;
  readonly #options: JetStreamWinLogOptions;
  readonly #now: () => number;
  readonly #publishTimeoutMs: number;

  constructor(
    js: JetStreamClient,
    jsm: JetStreamManager,
    claims: MatchClaims,
    options: JetStreamWinLogOptions,
  ) {
    this.#js = js;
    this.#jsm = jsm;
    this.#claims = claims;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#publishTimeoutMs = Math.min(5_000, Math.floor(options.duplicateWindowMs / 4));
  }

  async append(win: NewWin, trace: TraceScope = NO_TRACE): Promise<AppendResult> {
    // Before anything is claimed: a refused append leaves nothing behind that a retry must settle.
    const down = this.#options.connection?.down();
    if (down !== undefined) throw new NatsDisconnectedError(`NATS: ${down}`);
    const matchId = win.matchId;
    if (matchId === undefined) {
      const ack = await this.#publish(win, trace);
      return { win: { ...win, seq: ack.seq }, duplicate: false };
    }
    return this.#appendMatch(win, matchId, 1, trace);
  }

  async #appendMatch(
    win: NewWin,
    matchId: string,
    attempt: number,
    trace: TraceScope,
  ): Promise<AppendResult> {
    const claimedAt = this.#now();
    const mine = await this.#claims.create(matchId, win, claimedAt);
    if (mine === undefined) {
      const earlier = await this.#claims.get(matchId);
      if (earlier !== undefined) return { win: await this.#settle(matchId, earlier), duplicate: true };
      // Claimed a moment ago and gone already: only a TTL expiry or a purge does that; claim again.
      if (attempt < 3) return this.#appendMatch(win, matchId, attempt + 1, trace);
      throw new Error(`match id ${JSON.stringify(matchId)}: its claim keeps vanishing`);
    }
    if (this.#now() - claimedAt >= this.#options.duplicateWindowMs / 2) {
      return { win: await this.#settle(matchId, mine), duplicate: false };
    }
    const ack = await this.#publish(win, trace);
    if (!ack.duplicate) return { win: await this.#claims.complete(matchId, mine, ack.seq), duplicate: false };
    // The server still remembers the id while the claim was gone (a TTL shorter than the window).
    const original = await this.#readOne(ack.seq);
    return {
      win: await this.#claims.complete(matchId, { ...mine, win: original }, ack.seq),
      duplicate: true,
    };
  }

  async *read(period: Period, afterSeq: number): AsyncIterable<readonly Win[]> {
    const last = await this.lastSeq(period);
    if (last <= afterSeq) return;
    const consumer = await this.#js.consumers.get(this.#options.stream, {
      filter_subjects: [this.#subject(period)],
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: afterSeq + 1,
    });
    try {
      // Batch by batch until the last win counted at the start. A fetch that brings nothing (the
      // wins were purged meanwhile) ends the read after its expiry instead of waiting for ever.
      for (;;) {
        const batch: Win[] = [];
        let done = false;
        const messages = await consumer.fetch({ max_messages: READ_BATCH, expires: FETCH_EXPIRES_MS });
        for await (const message of messages) {
          batch.push(decodeWin(message.data, message.seq, message.headers?.get(MSG_ID) || undefined));
          if (message.seq >= last || message.info.pending === 0) {
            done = true;
            break;
          }
        }
        if (batch.length > 0) yield batch;
        if (done || batch.length === 0) return;
      }
    } finally {
      await consumer.delete().catch(() => false);
    }
  }

  async periods(): Promise<Period[]> {
    const prefix = `${this.#options.subjectPrefix}.`;
    const info = await this.#jsm.streams.info(this.#options.stream, { subjects_filter: `${prefix}*` });
    return Object.keys(info.state.subjects ?? {})
      .map((subject) => subject.slice(prefix.length))
      .sort();
  }

  async lastSeq(period: Period): Promise<number> {
    const last = await this.#jsm.streams.getMessage(this.#options.stream, {
      last_by_subj: this.#subject(period),
    });
    return last?.seq ?? 0;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  /** Settles an earlier claim: the original win, recorded once whatever became of its writer. */
  async #settle(matchId: string, claim: MatchClaim): Promise<Win> {
    if (claim.seq !== undefined) return { ...claim.win, seq: claim.seq };
    const age = this.#now() - claim.claimedAt;
    // Inside the window (less a margin for clocks), publishing the claim again is safe: if the
    // writer's publish got or gets through, the server keeps one of the two.
    const seq =
      age < (this.#options.duplicateWindowMs * 7) / 8
        ? (await this.#publish(claim.win)).seq
        : ((await this.#findPublished(matchId, claim)) ?? (await this.#publish(claim.win)).seq);
    return this.#claims.complete(matchId, claim, seq);
  }

  /**
   * The sequence of the claim's message if its writer published it. The writer publishes only
   * while the claim is younger than half the window, with a timeout of a quarter of it, so the
   * message can only carry a server time in that stretch after the claim.
   */
  async #findPublished(matchId: string, claim: MatchClaim): Promise<number | undefined> {
    const from = claim.claimedAt - CLOCK_SKEW_MS;
    const until = claim.claimedAt + (this.#options.duplicateWindowMs * 3) / 4 + CLOCK_SKEW_MS;
    const lastMessage = await this.#jsm.streams.getMessage(this.#options.stream, {
      last_by_subj: this.#subject(claim.win.period),
    });
    // Nothing since the claim: looking would wait for a message that never comes.
    if (lastMessage === null || lastMessage.time.getTime() < from) return undefined;
    const last = lastMessage.seq;
    const consumer = await this.#js.consumers.get(this.#options.stream, {
      filter_subjects: [this.#subject(claim.win.period)],
      deliver_policy: DeliverPolicy.StartTime,
      opt_start_time: new Date(from).toISOString(),
      headers_only: true,
    });
    try {
      for (;;) {
        let seen = 0;
        const messages = await consumer.fetch({ max_messages: READ_BATCH, expires: FETCH_EXPIRES_MS });
        for await (const message of messages) {
          seen++;
          if (message.headers?.get(MSG_ID) === matchId) return message.seq;
          const at = message.info.timestampNanos / 1_000_000;
          if (at > until || message.seq >= last || message.info.pending === 0) return undefined;
        }
        if (seen === 0) return undefined;
      }
    } finally {
      await consumer.delete().catch(() => false);
    }
  }

  /** Publishes a win; `trace` (the writer's request) travels in the message's headers. */
  #publish(win: NewWin, trace: TraceScope = NO_TRACE): Promise<PubAck> {
    const context = Object.entries(trace.headers());
    let headers: MsgHdrs | undefined;
    if (context.length > 0) {
      headers = natsHeaders();
      for (const [key, value] of context) headers.set(key, value);
    }
    return this.#js.publish(this.#subject(win.period), encodeWin(win), {
      ...(win.matchId === undefined ? {} : { msgID: win.matchId }),
      ...(headers === undefined ? {} : { headers }),
      timeout: this.#publishTimeoutMs,
    });
  }

  async #readOne(seq: number): Promise<Win> {
    const stored = await this.#jsm.streams.getMessage(this.#options.stream, { seq });
    if (stored === null) throw new Error(`win log message ${seq} is gone`);
    return decodeWin(stored.data, stored.seq, stored.header.get(MSG_ID) || undefined);
  }

  #subject(period: Period): string {
    return `${this.#options.subjectPrefix}.${period}`;
  }
}

/** Opens the log, creating its stream and match bucket when missing (win-log-stream.ts). */
export async function openJetStreamWinLog(
  nc: NatsConnection,
  options: JetStreamWinLogOptions,
): Promise<JetStreamWinLog> {
  const { info, kv } = await ensureWinLogStream(nc, options);
  const duplicateWindowMs = Math.floor((info.config.duplicate_window ?? 0) / 1_000_000);
  return new JetStreamWinLog(jetstream(nc), await jetstreamManager(nc), new MatchClaims(kv), {
    ...options,
    duplicateWindowMs,
  });
}
