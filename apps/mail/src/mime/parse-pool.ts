/**
 * Message parsing on a thread of its own, beside the thread that answers SMTP, on the machine's
 * other core. postal-mime's cost per message was mostly Node's `Blob` (one part a body line);
 * plain single-part bodies now avoid it (qp-body.ts), multipart ones with unencoded parts still
 * pay it, and the rest of a parse (~0.1–0.2 ms for 4 KB) stays off the SMTP thread. Results are
 * those of `parseMessage` (a message it cannot read: a rejection with postal-mime's message). A
 * thread that dies is replaced on the next parse; the parses it had are rejected with
 * `ParserUnavailable`, which says nothing about the message (the worker retries the job).
 * The parses asked for in one event-loop turn (a worker's batch) cross as one message.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { perTurn } from '../roles/per-turn.ts';
import type { ParsedMessage } from './parse.ts';

// The thread is a sibling module: .ts when run from source, .js once built.
const THREAD = new URL(`./parse-thread${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

/** The parse thread's heap: far above what a message the SMTP size limit lets in needs. */
const PARSE_HEAP_MB = 512;

/** The parse thread failed or is closed: the message was not judged. */
export class ParserUnavailable extends Error {}

type ParseReply =
  { readonly id: number; readonly parsed: ParsedMessage } | { readonly id: number; readonly error: string };

export interface MessageParser {
  parse(raw: Buffer): Promise<ParsedMessage>;
  /**
   * Starts the thread now rather than at the first parse, so that its start (loading postal-mime
   * and this code: ~0.2 s of CPU when run from source) delays no message. The worker calls it as
   * it starts.
   */
  warm(): void;
  close(): Promise<void>;
}

interface ParseRequest {
  readonly id: number;
  readonly raw: Uint8Array;
}

/** A running parse thread and how its requests reach it (a turn's as one message). */
interface Running {
  readonly worker: Worker;
  readonly ask: (request: ParseRequest) => void;
}

interface Pending {
  readonly resolve: (parsed: ParsedMessage) => void;
  readonly reject: (error: Error) => void;
}

/** Structured clone turns Buffers into Uint8Arrays: the attachments' contents become Buffers again. */
function revive(parsed: ParsedMessage): ParsedMessage {
  return {
    ...parsed,
    attachments: parsed.attachments.map((a) => ({
      ...a,
      content: Buffer.from(a.content.buffer, a.content.byteOffset, a.content.byteLength),
    })),
  };
}

export function startParseThread(): MessageParser {
  const pending = new Map<number, Pending>();
  let next = 0;
  let closed = false;
  let thread: Running | undefined;

  const spawn = (): Running => {
    // A message that makes the parser eat memory ends the thread, not the process.
    const worker = new Worker(THREAD, {
      // The name is the OS thread's too (top, /proc, the benchmark's CPU by thread).
      name: 'mail-parse',
      resourceLimits: { maxOldGenerationSizeMb: PARSE_HEAP_MB },
    });
    // Referenced only while a parse is under way: an idle parser keeps no process alive.
    worker.unref();
    worker.on('message', (reply: ParseReply) => {
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if (pending.size === 0) worker.unref();
      if ('error' in reply) waiting?.reject(new Error(reply.error));
      else waiting?.resolve(revive(reply.parsed));
    });
    const died = (reason: string): void => {
      if (thread?.worker !== worker) return;
      thread = undefined;
      for (const [id, waiting] of pending) {
        pending.delete(id);
        waiting.reject(new ParserUnavailable(reason));
      }
    };
    worker.on('error', (error: Error) => died(`the parse thread failed: ${error.message}`));
    worker.on('exit', (code) => died(`the parse thread exited (${code})`));
    return { worker, ask: perTurn<ParseRequest>((requests) => worker.postMessage(requests)) };
  };

  return {
    parse(raw) {
      if (closed) return Promise.reject(new ParserUnavailable('the parse thread is closed'));
      thread ??= spawn();
      const { worker, ask } = thread;
      const id = next++;
      return new Promise<ParsedMessage>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.ref();
        // A view of part of a larger buffer (Node's 8 KB pool, or a read of a bigger file) would
        // carry the whole buffer across: it goes as a copy of its own bytes.
        const whole = raw.byteOffset === 0 && raw.byteLength === raw.buffer.byteLength;
        ask({ id, raw: whole ? raw : new Uint8Array(raw) });
      });
    },
    warm() {
      if (!closed) thread ??= spawn();
    },
    async close() {
      closed = true;
      await thread?.worker.terminate();
      thread = undefined;
      // Whatever the thread still held is refused, not left waiting.
      for (const [id, waiting] of pending) {
        pending.delete(id);
        waiting.reject(new ParserUnavailable('the parse thread is closed'));
      }
    },
  };
}
