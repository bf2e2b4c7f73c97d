/**
 * An inbound SequenceReset (35=4), FIX 4.4, read into the next inbound MsgSeqNum it sets:
 *   - GapFill mode (GapFillFlag Y): it stands in for the messages from its own MsgSeqNum up to
 *     NewSeqNo - 1, so NewSeqNo must be above its MsgSeqNum;
 *   - Reset mode: its MsgSeqNum is not checked, and NewSeqNo may not go below what is expected.
 * A problem is answered with a session-level Reject (ValueOutOfRange on NewSeqNo).
 */
import type { FixMessage } from './codec.ts';
import { TAG } from './tags.ts';

export type SequenceResetAnswer = { readonly nextIn: number } | { readonly problem: string };

export function gapFill(message: FixMessage, seq: number): SequenceResetAnswer {
  const newSeq = Number(message.byTag.get(TAG.NewSeqNo));
  if (!Number.isInteger(newSeq) || newSeq <= seq) return { problem: 'NewSeqNo must be above MsgSeqNum' };
  return { nextIn: newSeq };
}

export function reset(message: FixMessage, nextIn: number): SequenceResetAnswer {
  const newSeq = Number(message.byTag.get(TAG.NewSeqNo));
  if (!Number.isInteger(newSeq) || newSeq < nextIn) return { problem: `NewSeqNo below ${nextIn}` };
  return { nextIn: newSeq };
}
