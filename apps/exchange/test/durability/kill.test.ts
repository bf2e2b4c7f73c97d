import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { fund, orderFlow, send } from '../../bench/order-flow.ts';
import type { ExchangeService } from '../../src/service.ts';
import { FLOW, traderService } from './trading-setup.ts';

t.setTimeout(180_000);

const TRADER = fileURLToPath(new URL('./trader.ts', import.meta.url));
const SNAPSHOT_EVERY = 700;

/** Runs the trader until it has acknowledged `killAfter` commands, then kills it with SIGKILL. */
function runAndKill(
  file: string,
  killAfter: number,
): Promise<{ acknowledged: number; signal: string | null }> {
  const child = spawn(
    process.execPath,
    [
      '--conditions=development',
      '--disable-warning=ExperimentalWarning',
      TRADER,
      file,
      String(SNAPSHOT_EVERY),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let acknowledged = 0;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the trader acknowledged only ${acknowledged} commands in 120 s`));
    }, 120_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      acknowledged = Number(line);
      if (acknowledged >= killAfter) child.kill('SIGKILL');
    });
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve({ acknowledged, signal });
    });
  });
}

/** Every order (open or finished, walked page by page) and execution of every account. */
function allReads(service: ExchangeService): string {
  const out: unknown[] = [];
  for (let i = 0; i < FLOW.accounts; i++) {
    const account = `acct-${i}`;
    let after: number | undefined;
    do {
      const page = service.orders(account, { limit: 250, ...(after === undefined ? {} : { after }) });
      out.push(page.data);
      after = page.next_cursor ?? undefined;
    } while (after !== undefined);
    out.push(service.executions(account));
  }
  return JSON.stringify(out);
}

/**
 * The state the trader had after `seq` commands, computed again in this process: the same
 * requests through a service on an in-memory journal, stopped at that sequence number.
 */
async function expected(seq: number): Promise<{ digest: string; reads: string }> {
  const { service } = traderService(':memory:', 1_000_000);
  await fund(service, FLOW);
  const next = orderFlow(FLOW);
  for (let i = 0; service.seq < seq && i < 10_000_000; i++) send(service, next());
  await service.durable();
  if (service.seq !== seq) throw new Error(`the re-run stopped at ${service.seq}, not ${seq}`);
  return { digest: service.digest(), reads: allReads(service) };
}

for (const killAfter of [1_500, 4_000]) {
  t.test(
    `kill -9 mid-load after ~${killAfter} commands: nothing acknowledged is lost, nothing runs twice`,
    async (t) => {
      const dir = mkdtempSync(join(tmpdir(), 'ex-kill-'));
      t.teardown(() => rmSync(dir, { recursive: true, force: true }));
      const file = join(dir, 'exchange.db');
      const { acknowledged, signal } = await runAndKill(file, killAfter);
      t.equal(signal, 'SIGKILL');
      const { service, journal } = traderService(file, SNAPSHOT_EVERY);
      const recovered = service.seq;
      t.ok(recovered >= acknowledged, `recovered ${recovered} >= acknowledged ${acknowledged}`);
      t.ok(journal.latestSnapshot() !== undefined, 'the restart began from a snapshot');
      const want = await expected(recovered);
      t.equal(service.digest(), want.digest, `the state after ${recovered} commands, exactly`);
      // Finished orders and executions: stored by the snapshots before the kill, or held again by the replay.
      t.equal(allReads(service), want.reads, 'every order and execution read as without the kill');
      // Each execution journaled once, numbered without a gap, and exactly the state's.
      const ids: number[] = [];
      journal.executions(([id]) => ids.push(id));
      t.ok(
        ids.every((id, i) => id === i + 1),
        `${ids.length} executions, ids 1…n`,
      );
      let inState = 0;
      for (let i = 0; i < FLOW.accounts; i++) inState += service.executions(`acct-${i}`).executions.length;
      t.equal(ids.length, inState);
      await service.close();
    },
  );
}
