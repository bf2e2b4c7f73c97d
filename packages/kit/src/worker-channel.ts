/**
 * Requests to a worker thread, each answered by one reply carrying its id: the shape of every
 * thread that owns a write connection (the leaderboard's win log and ranking checkpoints, the
 * exchange's journal). `WorkerChannel` is the caller's side, `answerRequests` the thread's.
 * A thread that fails or exits fails every request waiting on it, and every later one, with the
 * same error: a caller never waits on a thread that is gone.
 */
import { parentPort, type MessagePort, type TransferListItem, type Worker } from 'node:worker_threads';

/** What travels to the thread. */
interface Request<Command> {
  readonly id: number;
  readonly command: Command;
}

/**
 * What comes back: the handler's result, or what it threw. Structured cloning keeps an Error's
 * message and stack but not its other properties, so its `code` travels beside it.
 */
type Reply<Result> =
  | { readonly id: number; readonly ok: true; readonly result: Result }
  | { readonly id: number; readonly ok: false; readonly error: unknown; readonly code?: unknown };

interface Waiter<Result> {
  readonly resolve: (result: Result) => void;
  readonly reject: (error: Error) => void;
}

export class WorkerChannel<Command, Result> {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, Waiter<Result>>();
  #nextId = 1;
  #failed: Error | undefined;

  /** `name` says whose thread it is in the error of a thread that stopped. */
  constructor(worker: Worker, name: string) {
    this.#worker = worker;
    worker.on('message', (reply: Reply<Result>) => {
      const waiter = this.#waiting.get(reply.id);
      this.#waiting.delete(reply.id);
      if (reply.ok) waiter?.resolve(reply.result);
      else waiter?.reject(asError(reply.error, reply.code));
    });
    worker.on('error', (error: Error) => this.#fail(error));
    worker.on('exit', (code) => this.#fail(new Error(`${name} thread stopped (exit code ${code})`)));
  }

  /** Set once the thread failed or stopped: what every request fails with from then on. */
  get failed(): Error | undefined {
    return this.#failed;
  }

  /** Sends `command`; resolves to the thread's result. `transfer`: buffers moved, not copied. */
  request(command: Command, transfer: readonly TransferListItem[] = []): Promise<Result> {
    if (this.#failed !== undefined) return Promise.reject(this.#failed);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      const request: Request<Command> = { id, command };
      try {
        this.#worker.postMessage(request, transfer);
      } catch (error) {
        // A command that cannot be cloned never reached the thread: only this request fails.
        this.#waiting.delete(id);
        reject(asError(error, undefined));
      }
    });
  }

  /**
   * Sends `last` (the thread's own closing, when it has one) unless the thread failed, then ends
   * the thread whatever `last` gave (its failure is the promise's).
   */
  async close(last?: Command): Promise<void> {
    try {
      if (last !== undefined && this.#failed === undefined) await this.request(last);
    } finally {
      await this.#worker.terminate();
    }
  }

  #fail(error: Error): void {
    this.#failed ??= error;
    for (const waiter of this.#waiting.values()) waiter.reject(this.#failed);
    this.#waiting.clear();
  }
}

/**
 * In the thread: answers each request with `handle`'s result, or with what it threw. The handler
 * is synchronous: one request at a time, in the order they came.
 */
export function answerRequests<Command, Result>(
  handle: (command: Command) => Result,
  transferOf: (result: Result) => readonly TransferListItem[] = () => [],
): void {
  const port = parentPort;
  if (port === null) throw new Error('answerRequests runs in a worker thread');
  port.on('message', ({ id, command }: Request<Command>) => {
    let result: Result;
    try {
      result = handle(command);
    } catch (error) {
      postFailure(port, id, error);
      return;
    }
    try {
      port.postMessage({ id, ok: true, result } satisfies Reply<Result>, transferOf(result));
    } catch (error) {
      // The work is done (a batch may be committed): the caller hears why its answer cannot come.
      postFailure(port, id, new Error(`the thread's answer could not be sent: ${String(error)}`));
    }
  });
}

/**
 * Posts a failure; one that cannot be cloned (a property holding a function, say) goes as its
 * text and code, so that no answer is ever lost and the thread lives on.
 */
function postFailure(port: MessagePort, id: number, error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code;
  try {
    port.postMessage({ id, ok: false, error, code } satisfies Reply<never>);
  } catch {
    const message = (error as { message?: unknown } | null)?.message;
    const text = typeof message === 'string' ? message : String(error);
    port.postMessage({
      id,
      ok: false,
      error: new Error(text),
      code: typeof code === 'string' ? code : undefined,
    });
  }
}

function asError(error: unknown, code: unknown): Error {
  const failure = error instanceof Error ? error : new Error(String(error));
  if (code !== undefined) Object.assign(failure, { code });
  return failure;
}
