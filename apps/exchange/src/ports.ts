/**
 * The exchange's ports. The sequencer stamps commands; the journal makes them durable before
 * their effects are answered, and gives them back in order for a replay.
 */
import type { Command, Execution } from './core/messages.ts';

export interface StoredSnapshot {
  readonly seq: number;
  /** The state as JSON parts, in order (core/state-snapshot.ts): a day's state outgrows one string. */
  readonly parts: readonly string[];
}

export interface Journal {
  /** The highest sequence number appended (committed or not). */
  readonly lastSeq: number;
  /**
   * Writes the command sequenced `seq` (the next after lastSeq: the journal refuses a gap). It is
   * durable once a later `commit()` resolves; nothing about it may be answered before.
   */
  append(seq: number, command: Command): void;
  /** Records an outbound execution; durable with the commit of the command that caused it. */
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
