import type { Period } from '../../core/period.ts';
import { winRecordedEvent, type NewWin, type Win, type WinRecordedV1 } from '../../core/win.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The payload published for a win: the versioned event of core/win.ts. Its `seq` is the stream's,
 * known only once JetStream acknowledges the message, so the payload carries 0 there and readers
 * take the stream sequence; the match id travels as `Nats-Msg-Id` (the header is what drops a
 * retry), so a win without one is the only kind whose payload `id` is not its natural id.
 */
export function encodeWin(win: NewWin): Uint8Array {
  return encoder.encode(JSON.stringify(winRecordedEvent({ ...win, seq: 0 })));
}

/** A win read back from the stream: the payload, with the stream's sequence and the message id. */
export function decodeWin(data: Uint8Array, seq: number, matchId: string | undefined): Win {
  const event = JSON.parse(decoder.decode(data)) as Partial<WinRecordedV1>;
  if (event.type !== 'lb.win.recorded' || event.v !== 1) {
    throw new Error(`win log message ${seq} is not an lb.win.recorded v1 event`);
  }
  return {
    seq,
    period: event.period as Period,
    userId: String(event.userId),
    points: Number(event.points),
    matchId,
    at: Number(event.at),
  };
}
