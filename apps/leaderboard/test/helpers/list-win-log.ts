import type { NewWin, Win } from '../../src/core/win.ts';
import type { AppendResult, WinLog } from '../../src/ports.ts';

/** A win log in a list, for service tests: one period, match ids answered with their win. */
export class ListWinLog implements WinLog {
  readonly wins: Win[] = [];
  readonly #period: string;

  constructor(period: string) {
    this.#period = period;
  }

  append(win: NewWin): Promise<AppendResult> {
    const original = this.wins.find((w) => win.matchId !== undefined && w.matchId === win.matchId);
    if (original !== undefined) return Promise.resolve({ win: original, duplicate: true });
    const recorded = { ...win, seq: this.wins.length + 1 };
    this.wins.push(recorded);
    return Promise.resolve({ win: recorded, duplicate: false });
  }
  async *read(): AsyncIterable<readonly Win[]> {
    yield this.wins;
  }
  periods = () => Promise.resolve([this.#period]);
  lastSeq = () => Promise.resolve(this.wins.length);
  close = () => Promise.resolve();
}
