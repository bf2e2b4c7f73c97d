/**
 * The exchange's ports. The sequencer stamps commands; the journal makes them durable before
 * their effects are answered, and gives them back in order for a replay. Executions and finished
 * orders are not in the state: the journal holds those since the last snapshot in memory (a
 * replay from that snapshot derives them again, so they are never lost) and stores them with the
 * snapshot, in its transaction (so never stored twice); it answers the reads of them.
 */
import type { Command, Execution, Order, OrderStatus } from './core/messages.ts';

/** A stored execution: everything the API and the reports read. */
export type StoredExecution = Omit<Execution, 'counterOrderId'>;

/** The reads of the executions store, appended but not yet durable ones included. */
export interface ExecutionReads {
  /** The account's executions (of one order, when given), oldest first. */
  executionsOf(account: string, orderId?: number): StoredExecution[];
}

export interface StoredSnapshot {
  readonly seq: number;
  /** The state as JSON parts, in order (core/state-snapshot.ts): a day's state outgrows one string. */
  readonly parts: readonly string[];
}

/** A page of an account's finished orders: ids above `after`, of a status and symbol when given. */
export interface FinishedQuery {
  readonly after: number;
  readonly status?: OrderStatus;
  readonly symbol?: string;
  readonly limit: number;
}

/** The reads of the finished orders' store, finished but not yet durable ones included. */
export interface FinishedOrderReads {
  finishedOrder(id: number): Order | undefined;
  /** The first `limit` of the account's finished orders that match, in id order. */
  finishedOrders(account: string, query: FinishedQuery): Order[];
  /** Whether the account has a finished order above `after`, of any status or symbol. */
  hasFinishedAfter(account: string, after: number): boolean;
  /** The account's finished orders placed under a client order id, oldest first. */
  finishedByClientId(account: string, clientOrderId: string): Order[];
  /**
   * [account, client order id] of the stored finished orders created from the first time `from`
   * accepts on (it holds from some time on), for the memory of today's ids at opening.
   */
  finishedClientIdsFrom(from: (creationTime: number) => boolean): Array<[string, string]>;
}

export interface Journal extends ExecutionReads, FinishedOrderReads {
  /** The highest sequence number appended (committed or not). */
  readonly lastSeq: number;
  /**
   * Writes the command sequenced `seq` (the next after lastSeq: the journal refuses a gap). It is
   * durable once a later `commit()` resolves; nothing about it may be answered before.
   */
  append(seq: number, command: Command): void;
  /**
   * Journals an outbound execution with the batch of the command that caused it and holds it
   * until the next snapshot stores it; readable at once (executionsOf).
   */
  appendExecution(execution: Execution): void;
  /** Holds an execution a replay derived again (journaled already) until the next snapshot. */
  keepExecution(execution: Execution): void;
  /**
   * Holds an order that filled or was canceled (final) until the next snapshot stores it;
   * readable at once. Not journaled: the replay of its command derives it again.
   */
  appendFinished(order: Order): void;
  /**
   * Resolves once everything appended so far is durable. Appends of one turn of the event loop
   * share a commit (group commit); a failed commit rejects every waiter.
   */
  commit(): Promise<void>;
  /** Whether anything appended is not durable yet (a batch gathering or being written). */
  readonly pending: boolean;
  /** The commands after `afterSeq`, in order (startup replay). */
  replay(afterSeq: number, visit: (seq: number, command: Command) => void): void;
  /**
   * Stores a snapshot taken after command `seq` (with the current batch), and in its transaction
   * every execution and finished order held so far; older snapshots may go.
   */
  saveSnapshot(snapshot: StoredSnapshot): void;
  latestSnapshot(): StoredSnapshot | undefined;
  /** Commits what is pending and releases the store. */
  close(): Promise<void>;
}
