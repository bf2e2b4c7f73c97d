/**
 * The thread of `startParseThread` (parse-pool.ts): parses each raw message it is sent with
 * postal-mime and posts the result back, or the failure's text. The requests of one turn of the
 * sender come as one list (one message across threads, one wake-up here).
 */
import { parentPort } from 'node:worker_threads';
import { parseMessage } from './parse.ts';

interface ParseRequest {
  readonly id: number;
  readonly raw: Uint8Array;
}

function handle({ id, raw }: ParseRequest): void {
  parseMessage(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength)).then(
    (parsed) => {
      // A small Buffer is a slice of Node's pool, and posting it would carry the whole pool
      // across: each attachment's bytes are copied into an ArrayBuffer of their own, and that is
      // moved, not copied again.
      const attachments = parsed.attachments.map((a) => ({ ...a, content: new Uint8Array(a.content) }));
      try {
        parentPort?.postMessage(
          { id, parsed: { ...parsed, attachments } },
          attachments.map((a) => a.content.buffer),
        );
      } catch (error) {
        parentPort?.postMessage({ id, error: `the parsed message could not be posted: ${String(error)}` });
      }
    },
    (error: unknown) => {
      parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    },
  );
}

parentPort?.on('message', (requests: readonly ParseRequest[]) => {
  for (const request of requests) handle(request);
});
