/**
 * Resending, the acceptor's side of FIX 4.4 recovery: the application messages kept for a resend
 * (the last `window` of them, by MsgSeqNum), and the answer to a ResendRequest (35=2): each kept
 * message again at its number, with PossDupFlag and its OrigSendingTime, and every run of numbers
 * not kept (session messages, or too old) as one SequenceReset-GapFill. Pure: the session passes
 * in how a frame is built.
 */
import { fieldsText, type Field, type FixMessage } from './codec.ts';
import { MSG, TAG } from './tags.ts';

/** An application message as sent, kept for a resend. */
export interface SentMessage {
  readonly msgType: string;
  /** The body's fields, encoded. */
  readonly body: string;
  readonly sendingTime: string;
}

/** Where a session keeps what it sent for a resend: a Map, or a SentLog (sent-log.ts). */
export interface SentStore {
  get(seq: number): SentMessage | undefined;
  set(seq: number, message: SentMessage): unknown;
  delete(seq: number): unknown;
  clear(): void;
  /** Keeps a message copied from its frame's bytes (SentLog.setFromFrame), where the store can. */
  setFromFrame?(
    seq: number,
    msgType: string,
    frame: Buffer,
    timeStart: number,
    timeLength: number,
    bodyEnd: number,
  ): void;
}

/** Keeps the message sent at `seq`, and forgets the one that falls out of the window. */
export function keepSent(sent: SentStore, seq: number, message: SentMessage, window: number): void {
  sent.set(seq, message);
  sent.delete(seq - window);
}

/** Builds the frame of a resend at `seq` (PossDupFlag Y, OrigSendingTime `original`). */
export type ResendFrame<Frame> = (seq: number, msgType: string, body: string, original: string) => Frame;

export type ResendAnswer<Frame> = { readonly frames: Frame[] } | { readonly problem: string };

/**
 * The answer to a ResendRequest when `lastSent` is our last MsgSeqNum; EndSeqNo 0 (or past the
 * last) means up to the last. A gap fill's OrigSendingTime is `now` (it was never sent before).
 */
export function answerResendRequest<Frame>(
  request: FixMessage,
  lastSent: number,
  sent: Pick<SentStore, 'get'>,
  now: string,
  frame: ResendFrame<Frame>,
): ResendAnswer<Frame> {
  const begin = Number(request.byTag.get(TAG.BeginSeqNo));
  const endAsked = Number(request.byTag.get(TAG.EndSeqNo));
  if (!Number.isInteger(begin) || begin < 1 || !Number.isInteger(endAsked) || endAsked < 0) {
    return { problem: 'bad BeginSeqNo or EndSeqNo' };
  }
  const end = endAsked === 0 || endAsked > lastSent ? lastSent : endAsked;
  const frames: Frame[] = [];
  let gapFrom: number | undefined;
  const fillGap = (upTo: number) => {
    if (gapFrom === undefined) return;
    const fields: Field[] = [
      [TAG.GapFillFlag, 'Y'],
      [TAG.NewSeqNo, String(upTo)],
    ];
    frames.push(frame(gapFrom, MSG.SequenceReset, fieldsText(fields), now));
    gapFrom = undefined;
  };
  for (let s = begin; s <= end; s++) {
    const message = sent.get(s);
    if (message === undefined) {
      gapFrom ??= s;
      continue;
    }
    fillGap(s);
    frames.push(frame(s, message.msgType, message.body, message.sendingTime));
  }
  fillGap(end + 1);
  return { frames };
}
