/**
 * One FIX 4.4 session on the acceptor's side, a pure core: frames in (decoded), actions out, time
 * passed in. It owns the session's state and its order: the logon (read in logon.ts), the two
 * sequence numbers, heartbeats and test requests, gap detection (one ResendRequest per gap),
 * inbound SequenceReset (sequence-reset.ts), session-level Reject and Logout. Answering a
 * ResendRequest, and what is kept for it, is resend.ts. Application messages are handed on
 * (`app`); the acceptor persists `sequences` before it writes what this produced, so a restart
 * goes on with the same numbers.
 */
import { fieldsText, type Field, type FixMessage } from './codec.ts';
import { bodyText, type EncodedBody } from './body-bytes.ts';
import type { FrameOut } from './frame-writer.ts';
import { readLogon } from './logon.ts';
import { answerResendRequest, keepSent, type SentMessage, type SentStore } from './resend.ts';
import { gapFill, reset, type SequenceResetAnswer } from './sequence-reset.ts';
import { logonReplyBody, rejectBody, resendRequestBody, sessionFrame } from './session-messages.ts';
import type { Sequences, SessionAction, SessionDirectory, SessionOptions } from './session-types.ts';
import { ADMIN_TYPES, MSG, SESSION_REJECT, TAG } from './tags.ts';
import { UtcTimestamps } from './utc-timestamp.ts';

/** Re-exported for the session tests, written when the type lived here. */
export type { SentMessage };
export type { Sequences, SessionAction };

/** FIX 4.4 application message types (so an unknown one is told apart from an unsupported one). */
const APP_TYPE = /^(?:[6-9A-Za-z]|A[A-Z]|B[A-H])$/;

export class FixSession {
  readonly #stamps = new UtcTimestamps();
  readonly #compId: string;
  readonly #directory: SessionDirectory;
  readonly #window: number;
  /** This SenderCompID's recent application messages (the directory's, so a reconnect keeps them). */
  #sent: SentStore = new Map<number, SentMessage>();
  state: 'awaiting-logon' | 'active' | 'logging-out' | 'closed' = 'awaiting-logon';
  senderCompId = '';
  account = '';
  nextIn = 1;
  nextOut = 1;
  /** Seconds; 0 means no heartbeats. */
  heartBtInt = 0;
  #lastSent = 0;
  #lastReceived = 0;
  #testRequestAt: number | undefined;
  #resendUpTo: number | undefined;

  constructor(options: SessionOptions) {
    this.#compId = options.compId;
    this.#directory = options.directory;
    this.#window = options.resendWindow ?? 10_000;
  }

  sequences(): Sequences {
    return { nextIn: this.nextIn, nextOut: this.nextOut };
  }

  /** Takes one decoded inbound message. */
  receive(message: FixMessage, now: number): SessionAction[] {
    this.#lastReceived = now;
    this.#testRequestAt = undefined;
    if (this.state === 'closed') return [];
    if (this.state === 'awaiting-logon') return this.#logon(message, now);
    const get = (tag: number) => message.byTag.get(tag);
    const msgType = get(TAG.MsgType) ?? '';
    const seq = Number(get(TAG.MsgSeqNum));
    if (!Number.isInteger(seq) || seq < 1) return this.#logout('MsgSeqNum missing or not a number', now);
    if (get(TAG.SenderCompID) !== this.senderCompId || get(TAG.TargetCompID) !== this.#compId) {
      return [
        ...this.reject(seq, msgType, SESSION_REJECT.CompIdProblem, 'CompID problem', now, TAG.SenderCompID),
        ...this.#logout('CompID problem', now),
      ];
    }
    const possDup = get(TAG.PossDupFlag) === 'Y';
    if (msgType === MSG.SequenceReset && get(TAG.GapFillFlag) !== 'Y') {
      // Reset mode: the sequence number is not checked (FIX 4.4).
      const answer = reset(message, this.nextIn);
      if ('nextIn' in answer) this.#resendUpTo = undefined;
      return this.#sequenceReset(answer, seq, now);
    }
    if (seq < this.nextIn) {
      if (possDup) return [];
      return this.#logout(`MsgSeqNum too low, expecting ${this.nextIn} but received ${seq}`, now);
    }
    if (seq > this.nextIn) {
      const actions = this.#askResend(now);
      // A resend request and a logout are answered even across a gap; the rest comes again.
      if (msgType === MSG.ResendRequest) actions.push(...this.#resend(message, seq, now));
      if (msgType === MSG.Logout) actions.push(...this.#logout(undefined, now));
      return actions;
    }
    this.nextIn++;
    if (this.#resendUpTo !== undefined && this.nextIn > this.#resendUpTo) this.#resendUpTo = undefined;
    if (get(TAG.SendingTime) === undefined) {
      return this.#missing(seq, msgType, TAG.SendingTime, 'SendingTime', now);
    }
    return this.#dispatch(message, msgType, seq, now);
  }

  /**
   * Sends an application message (ExecutionReport, OrderCancelReject, BusinessMessageReject);
   * `body` is its fields after the header, encoded (`fieldsText`).
   */
  send(msgType: string, body: string, now: number): SessionAction {
    const seq = this.nextOut;
    if (!ADMIN_TYPES.has(msgType)) {
      keepSent(this.#sent, seq, { msgType, body, sendingTime: this.#stamps.format(now) }, this.#window);
    }
    const action = this.#frameAt(seq, msgType, body, now);
    this.nextOut++;
    return action;
  }

  /** `send`, its frame written into `out` (the connection's bytes) rather than made a string. */
  sendInto(out: FrameOut, msgType: string, body: string | EncodedBody, now: number): void {
    const seq = this.nextOut;
    const time = this.#stamps.format(now);
    this.#lastSent = now;
    const bodyAt = out.frame(msgType, this.#compId, this.senderCompId, seq, time, body);
    this.nextOut++;
    if (ADMIN_TYPES.has(msgType)) return;
    const sent = this.#sent;
    if (sent.setFromFrame === undefined) {
      keepSent(sent, seq, { msgType, body: bodyText(body), sendingTime: time }, this.#window);
      return;
    }
    sent.setFromFrame(seq, msgType, out.bytes, bodyAt - time.length - 1, time.length, bodyAt + body.length);
    sent.delete(seq - this.#window);
  }

  /** A session-level Reject (35=3) of inbound message `refSeq`. */
  reject(
    refSeq: number,
    refMsgType: string,
    reason: number,
    text: string,
    now: number,
    refTag?: number,
  ): SessionAction[] {
    return [this.#send(MSG.Reject, rejectBody(refSeq, refMsgType, reason, text, refTag), now)];
  }

  /** A session-level Reject of inbound message `refSeq`: a required tag (`name`) is missing. */
  #missing(refSeq: number, refMsgType: string, tag: number, name: string, now: number): SessionAction[] {
    return this.reject(refSeq, refMsgType, SESSION_REJECT.RequiredTagMissing, `${name} missing`, now, tag);
  }

  /** Heartbeats, test requests and their timeouts; the acceptor calls it about once a second. */
  tick(now: number): SessionAction[] {
    if (this.state !== 'active' || this.heartBtInt === 0) return [];
    const interval = this.heartBtInt * 1000;
    if (this.#testRequestAt !== undefined && now - this.#testRequestAt >= interval) {
      this.state = 'closed';
      return [{ kind: 'close', reason: 'no answer to a TestRequest' }];
    }
    const actions: SessionAction[] = [];
    if (this.#testRequestAt === undefined && now - this.#lastReceived >= interval * 1.2) {
      this.#testRequestAt = now;
      actions.push(this.#send(MSG.TestRequest, [[TAG.TestReqID, `TEST-${now}`]], now));
    }
    if (now - this.#lastSent >= interval) actions.push(this.#send(MSG.Heartbeat, [], now));
    return actions;
  }

  /** Ends the session from our side (shutdown): Logout now, the connection closes on the answer. */
  logout(text: string, now: number): SessionAction[] {
    if (this.state !== 'active') return [{ kind: 'close', reason: text }];
    this.state = 'logging-out';
    return [this.#send(MSG.Logout, [[TAG.Text, text]], now)];
  }

  #logon(message: FixMessage, now: number): SessionAction[] {
    const logon = readLogon(message, this.#compId, (sender, password) =>
      this.#directory.authenticate(sender, password),
    );
    if ('refused' in logon) {
      this.state = 'closed';
      return [{ kind: 'close', reason: logon.refused }];
    }
    const { senderCompId: sender, account, seq, heartBtInt } = logon;
    this.senderCompId = sender;
    this.account = account;
    this.heartBtInt = heartBtInt;
    const stored = logon.reset ? { nextIn: 1, nextOut: 1 } : this.#directory.sequences(sender);
    this.nextIn = stored.nextIn;
    this.nextOut = stored.nextOut;
    this.#sent = this.#directory.sentMessages(sender);
    if (logon.reset) this.#sent.clear();
    if (seq < this.nextIn) {
      this.state = 'active';
      return this.#logout(`MsgSeqNum too low, expecting ${this.nextIn} but received ${seq}`, now);
    }
    this.state = 'active';
    const actions: SessionAction[] = [
      { kind: 'logon', senderCompId: sender, account },
      this.#send(MSG.Logon, logonReplyBody(heartBtInt, logon.reset), now),
    ];
    if (seq > this.nextIn) actions.push(...this.#askResend(now));
    else this.nextIn++;
    return actions;
  }

  #dispatch(message: FixMessage, msgType: string, seq: number, now: number): SessionAction[] {
    switch (msgType) {
      case MSG.Heartbeat:
      case MSG.Reject:
        return [];
      case MSG.TestRequest: {
        const id = message.byTag.get(TAG.TestReqID);
        if (id === undefined) return this.#missing(seq, msgType, TAG.TestReqID, 'TestReqID', now);
        return [this.#send(MSG.Heartbeat, [[TAG.TestReqID, id]], now)];
      }
      case MSG.ResendRequest:
        return this.#resend(message, seq, now);
      case MSG.SequenceReset:
        return this.#sequenceReset(gapFill(message, seq), seq, now);
      case MSG.Logout:
        return this.#logout(undefined, now);
      case MSG.Logon:
        return this.reject(seq, msgType, SESSION_REJECT.InvalidMsgType, 'already logged on', now);
      default:
        if (!APP_TYPE.test(msgType)) {
          return this.reject(
            seq,
            msgType,
            SESSION_REJECT.InvalidMsgType,
            `MsgType ${msgType} is not FIX 4.4`,
            now,
            TAG.MsgType,
          );
        }
        return [{ kind: 'app', message, msgType, seq }];
    }
  }

  /** Asks for what is missing from nextIn on, once per gap. */
  #askResend(now: number): SessionAction[] {
    if (this.#resendUpTo !== undefined) return [];
    this.#resendUpTo = Number.MAX_SAFE_INTEGER;
    return [this.#send(MSG.ResendRequest, resendRequestBody(this.nextIn), now)];
  }

  #resend(message: FixMessage, seq: number, now: number): SessionAction[] {
    const answer = answerResendRequest(
      message,
      this.nextOut - 1,
      this.#sent,
      this.#stamps.format(now),
      (at, msgType, body, original) => this.#frameAt(at, msgType, body, now, original),
    );
    if ('frames' in answer) return answer.frames;
    return this.reject(seq, MSG.ResendRequest, SESSION_REJECT.IncorrectDataFormat, answer.problem, now);
  }

  /** A SequenceReset read (either mode): the expected number moves on, or a session Reject. */
  #sequenceReset(answer: SequenceResetAnswer, seq: number, now: number): SessionAction[] {
    if ('problem' in answer) {
      return this.reject(
        seq,
        MSG.SequenceReset,
        SESSION_REJECT.ValueOutOfRange,
        answer.problem,
        now,
        TAG.NewSeqNo,
      );
    }
    this.nextIn = answer.nextIn;
    if (this.#resendUpTo !== undefined && this.nextIn > this.#resendUpTo) this.#resendUpTo = undefined;
    return [];
  }

  /** Answers their Logout (text undefined), or starts ours; either way the connection ends. */
  #logout(text: string | undefined, now: number): SessionAction[] {
    const answering = text === undefined;
    const actions: SessionAction[] = [];
    if (!(answering && this.state === 'logging-out')) {
      actions.push(this.#send(MSG.Logout, answering ? [] : [[TAG.Text, text]], now));
    }
    this.state = 'closed';
    actions.push({ kind: 'close', reason: text ?? 'Logout' });
    return actions;
  }

  /** A session-level message. */
  #send(msgType: string, body: readonly Field[], now: number): SessionAction {
    const action = this.#frameAt(this.nextOut, msgType, fieldsText(body), now);
    this.nextOut++;
    return action;
  }

  /** A frame at `seq`; with `original` it is a resend (PossDupFlag, OrigSendingTime). */
  #frameAt(seq: number, msgType: string, body: string, now: number, original?: string): SessionAction {
    this.#lastSent = now;
    const time = this.#stamps.format(now);
    return {
      kind: 'send',
      frame: sessionFrame(msgType, this.#compId, this.senderCompId, seq, time, body, original),
    };
  }
}
