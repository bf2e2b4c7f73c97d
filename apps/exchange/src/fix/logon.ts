/**
 * The first message of a session, read: a Logon (35=A) to our CompID, from a SenderCompID whose
 * Password is right, with a MsgSeqNum and a HeartBtInt. Anything else is refused with a reason
 * (the acceptor closes the connection without an answer, as FIX 4.4 has it for a failed logon).
 */
import type { FixMessage } from './codec.ts';
import { MSG, TAG } from './tags.ts';

export interface LogonRequest {
  readonly senderCompId: string;
  readonly account: string;
  readonly seq: number;
  /** Seconds; 0 means no heartbeats. */
  readonly heartBtInt: number;
  /** ResetSeqNumFlag Y: both sides start again from 1. */
  readonly reset: boolean;
}

export function readLogon(
  message: FixMessage,
  compId: string,
  authenticate: (senderCompId: string, password: string | undefined) => string | undefined,
): LogonRequest | { readonly refused: string } {
  const get = (tag: number) => message.byTag.get(tag);
  if (get(TAG.MsgType) !== MSG.Logon) return { refused: 'the first message was not a Logon' };
  const senderCompId = get(TAG.SenderCompID) ?? '';
  const seq = Number(get(TAG.MsgSeqNum));
  const heartBtInt = Number(get(TAG.HeartBtInt));
  if (get(TAG.TargetCompID) !== compId)
    return { refused: `Logon to ${get(TAG.TargetCompID)}, not ${compId}` };
  const account = authenticate(senderCompId, get(TAG.Password));
  if (account === undefined) return { refused: `Logon refused for SenderCompID ${senderCompId}` };
  if (!Number.isInteger(seq) || seq < 1 || !Number.isInteger(heartBtInt) || heartBtInt < 0) {
    return { refused: 'Logon without a valid MsgSeqNum or HeartBtInt' };
  }
  return { senderCompId, account, seq, heartBtInt, reset: get(TAG.ResetSeqNumFlag) === 'Y' };
}
