/**
 * The exchange's ports. The sequencer stamps commands; the journal makes them durable before
 * their effects are answered, and gives them back in order for a replay. Executions are not kept
 * in memory: the journal stores them with the batch of the command that made them (one
 * transaction, so never lost nor stored twice) and answers the reads of them.
 */
import type { Command, Execution } from './core/messages.ts';

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

export interface Journal extends ExecutionReads {
  /** The highest sequence number appended (committed or not). */
  readonly lastSeq: number;
  /**
   * Writes the command sequenced `seq` (the next after lastSeq: the journal refuses a gap). It is
   * durable once a later `commit()` resolves; nothing about it may be answered before.
   */
  append(seq: number, command: Command): void;
  /**
   * Records an outbound execution in the store; durable with the commit of the command that
   * caused it, readable at once (executionsOf).
   */
  appendExecution(execution: Execution): void;
  /**
   * Resolves once everything appended so far is durable. Appends of one turn of the event loop
   * share a commit (group commit); a failed commit rejects every waiter.
   */
  commit(): Promise<void>;
  /** The commands after `afterSeq`, in order (startup replay). */
  replay(afterSeq: number, visit: (seq: number, command: Command) => void): void;
  /** Stores a snapshot taken after command `seq` (with the current batch); older ones may go. */
  saveSnapshot(snapshot: StoredSnapshot): void;
  latestSnapshot(): StoredSnapshot | undefined;
  /** Commits what is pending and releases the store. */
  close(): Promise<void>;
}
