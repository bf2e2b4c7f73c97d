/**
 * The QuickFIX/J client driver (test-support/fix-client, built by tools/fix-client.sh) as a child
 * process: commands go in on stdin, every message it receives comes back as a line.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Builds the driver once (cached in ~/.cache/tessera/fix-client); fails loudly when it cannot. */
export function buildClient(): string {
  return execFileSync('bash', [`${ROOT}tools/fix-client.sh`], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

/** A received message: its MsgType and fields by tag. */
export interface Received {
  readonly type: string;
  readonly tags: ReadonlyMap<number, string>;
  readonly line: string;
}

export class QuickFixClient {
  readonly lines: string[] = [];
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #waiters = new Set<() => void>();
  #read = 0;

  constructor(dir: string, port: number, sender: string, password: string, store: string) {
    this.#child = spawn('java', [
      '-cp',
      `${dir}/classes:${dir}/lib/*`,
      'FixClient',
      '127.0.0.1',
      String(port),
      sender,
      'TESSERA',
      password,
      store,
    ]);
    this.#child.stderr.on('data', (d: Buffer) => process.stderr.write(d));
    createInterface({ input: this.#child.stdout }).on('line', (line) => {
      this.lines.push(line);
      for (const wake of this.#waiters) wake();
    });
  }

  send(command: string): void {
    this.#child.stdin.write(`${command}\n`);
  }

  /** The next line (after those already taken) that matches; fails after `ms`. */
  async next(match: (r: Received) => boolean, ms = 15_000): Promise<Received> {
    const deadline = Date.now() + ms;
    for (;;) {
      while (this.#read < this.lines.length) {
        const line = this.lines[this.#read++]!;
        const r = parse(line);
        if (match(r)) return r;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching line in ${ms} ms; got:\n${this.lines.join('\n')}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.#waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.#waiters.add(wake);
      });
    }
  }

  /** The next application or admin message of a type (lines of other types are passed over). */
  message(type: string, ms?: number): Promise<Received> {
    return this.next((r) => r.type === type, ms);
  }

  async logout(): Promise<void> {
    this.send('logout');
    await this.next((r) => r.type === 'EXIT');
    await this.stop();
  }

  async stop(): Promise<void> {
    if (this.#child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.#child.once('exit', resolve));
    this.#child.kill();
    await exited;
  }
}

function parse(line: string): Received {
  if (!line.startsWith('IN ')) return { type: line, tags: new Map(), line };
  const space = line.indexOf(' ', 3);
  const type = line.slice(3, space);
  const body = line.slice(space + 1);
  const tags = new Map<number, string>();
  for (const field of body.split('|')) {
    const eq = field.indexOf('=');
    if (eq > 0 && !tags.has(Number(field.slice(0, eq))))
      tags.set(Number(field.slice(0, eq)), field.slice(eq + 1));
  }
  return { type, tags, line };
}
