/**
 * A progress line for long work on stderr: rewritten in place at a terminal, one line a second
 * otherwise (CI logs, pipes), so a rebuild of millions of wins never looks stuck.
 */
export interface ProgressLine {
  update(text: string): void;
  done(text: string): void;
}

export function progressLine(stream: NodeJS.WriteStream = process.stderr, everyMs = 1000): ProgressLine {
  const interactive = stream.isTTY;
  let last = 0;
  return {
    update(text) {
      if (interactive) {
        stream.write(`\r\x1b[2K${text}`);
        return;
      }
      const now = Date.now();
      if (now - last < everyMs) return;
      last = now;
      stream.write(`${text}\n`);
    },
    done(text) {
      stream.write(interactive ? `\r\x1b[2K${text}\n` : `${text}\n`);
    },
  };
}
