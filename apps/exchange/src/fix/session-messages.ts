/** The session-level messages' bodies and frames, as FixSession (session.ts) sends them. */
import { frame, SOH, type Field } from './codec.ts';
import { TAG } from './tags.ts';

/** A session-level Reject's (35=3) fields, of inbound message `refSeq`. */
export function rejectBody(
  refSeq: number,
  refMsgType: string,
  reason: number,
  text: string,
  refTag?: number,
): Field[] {
  const body: Field[] = [[TAG.RefSeqNum, String(refSeq)]];
  if (refTag !== undefined) body.push([TAG.RefTagID, String(refTag)]);
  if (refMsgType !== '') body.push([TAG.RefMsgType, refMsgType]);
  body.push([TAG.SessionRejectReason, String(reason)], [TAG.Text, text]);
  return body;
}

/** The Logon answered, with ResetSeqNumFlag when the client reset the numbers. */
export function logonReplyBody(heartBtInt: number, reset: boolean): Field[] {
  const reply: Field[] = [
    [TAG.EncryptMethod, '0'],
    [TAG.HeartBtInt, String(heartBtInt)],
  ];
  if (reset) reply.push([TAG.ResetSeqNumFlag, 'Y']);
  return reply;
}

/** A ResendRequest for everything from `from` on (FIX 4.4: EndSeqNo 0 means "all"). */
export function resendRequestBody(from: number): Field[] {
  return [
    [TAG.BeginSeqNo, String(from)],
    [TAG.EndSeqNo, '0'],
  ];
}

/** A frame at `seq`; with `original` (its first SendingTime) it is a resend: PossDupFlag, OrigSendingTime. */
export function sessionFrame(
  msgType: string,
  compId: string,
  senderCompId: string,
  seq: number,
  time: string,
  body: string,
  original?: string,
): string {
  const route = `35=${msgType}${SOH}49=${compId}${SOH}56=${senderCompId}${SOH}34=${seq}${SOH}`;
  const header =
    original === undefined
      ? `${route}52=${time}${SOH}`
      : `${route}43=Y${SOH}52=${time}${SOH}122=${original}${SOH}`;
  return frame(header + body);
}
