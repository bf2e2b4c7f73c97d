/**
 * FIX on loopback (issue #12): the exchange with its FIX acceptor in one process (journal on, in a
 * temporary directory), the load generator in this one. Two sessions log on (a buyer and a
 * seller account); each sends NewOrderSingle limit orders of quantity 1 at one price, so every sell
 * fills a resting buy: the exchange journals, matches, settles and reports (ExecutionReport new,
 * and a fill for both sides). At most WINDOW orders per session are unanswered at a time.
 * Per run: orders/s from the first order sent to the last acknowledgement, and the latency of each
 * order from the moment it was written to the socket to its first ExecutionReport (new or
 * rejected, sent once the journal's group commit is durable). Median of RUNS runs. The exchange
 * process's CPU time per run is reported too: orders per CPU-second do not move with the load
 * other processes put on a shared machine, wall-clock orders/s do.
 *
 * `node bench/fix.ts` runs the benchmark; `--serve` is the exchange side it starts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createLogger, openSqlite } from '@tessera/kit';
import { SqliteJournal } from '../src/adapters/embedded/sqlite-journal.ts';
import { exchangeRules, readExchangeConfig } from '../src/config.ts';
import { FixAcceptor } from '../src/fix/acceptor.ts';
import { encode, FrameReader, type Field } from '../src/fix/codec.ts';
import { authenticator, parseCredentials } from '../src/fix/credentials.ts';
import { UtcTimestamps } from '../src/fix/utc-timestamp.ts';
import { SqliteSequenceStore } from '../src/fix/sqlite-sequence-store.ts';
import { ExchangeService } from '../src/service.ts';

const ORDERS = Number(process.env.BENCH_FIX_ORDERS ?? 100_000);
const RUNS = Number(process.env.BENCH_FIX_RUNS ?? 3);
const WINDOW = Number(process.env.BENCH_FIX_WINDOW ?? 2_000);
const SYNC = (process.env.BENCH_FIX_SYNC ?? 'normal') as 'full' | 'normal';
const CREDENTIALS = 'BUYER:pw:alice,SELLER:pw:bob';

async function serve(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ex-fix-bench-'));
  const config = readExchangeConfig({
    EXCHANGE_HOURS: 'always',
    EXCHANGE_DAILY_CAP: '1000000000',
    EXCHANGE_SELF_TRADE: 'allow',
  });
  const journalDb = openSqlite(join(dir, 'journal.db'), { synchronous: SYNC });
  const fixDb = openSqlite(join(dir, 'fix.db'), { synchronous: 'normal' });
  const service = ExchangeService.open({
    rules: exchangeRules(config),
    journal: new SqliteJournal(journalDb),
  });
  await service.deposit('alice', 1_000_000_000_000);
  await service.deposit('bob', 0, { AAPL: 1_000_000_000 });
  const acceptor = await FixAcceptor.start({
    port: 0,
    host: '127.0.0.1',
    compId: 'TESSERA',
    venue: service,
    store: new SqliteSequenceStore(fixDb),
    authenticate: authenticator(parseCredentials(CREDENTIALS)),
    logger: createLogger({ level: 'silent', name: 'fix-bench' }),
  });
  const start = process.cpuUsage();
  process.stdout.write(`PORT ${acceptor.port}\n`);
  // Each line asks for the CPU time used since the last one (the exchange side's share).
  let last = start;
  const asked = createInterface({ input: process.stdin });
  asked.on('line', () => {
    const used = process.cpuUsage(last);
    last = process.cpuUsage();
    process.stdout.write(`CPU ${(used.user + used.system) / 1e6}\n`);
  });
  await new Promise((resolve) => asked.once('close', resolve));
  await acceptor.close(200);
  await service.close();
  fixDb.close();
  journalDb.close();
  rmSync(dir, { recursive: true, force: true });
}

/** One FIX session of the load generator. */
class Trader {
  readonly #socket: Socket;
  readonly #reader = new FrameReader();
  readonly #sender: string;
  readonly #sentAt = new Map<string, number>();
  /**
   * The client's stamps (SendingTime, TransactTime), kept per millisecond as the exchange's are:
   * a Date's formatting twice per order was a tenth of this process's CPU, taken from the
   * exchange's share of the machine's two cores.
   */
  readonly #stamps = new UtcTimestamps();
  #seq = 1;
  #onFrame: (frame: string) => void = () => {};

  private constructor(socket: Socket, sender: string) {
    this.#socket = socket;
    this.#sender = sender;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      for (const frame of this.#reader.push(chunk.toString('latin1'))) this.#onFrame(frame);
    });
  }

  static async logOn(port: number, sender: string): Promise<Trader> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const trader = new Trader(socket, sender);
    const answered = new Promise<void>((resolve) => (trader.#onFrame = () => resolve()));
    trader.#write('A', [
      [98, '0'],
      [108, '30'],
      [141, 'Y'],
      [554, 'pw'],
    ]);
    await answered;
    return trader;
  }

  /** Sends `count` orders, WINDOW at most in flight; answers each order's latency (ms). */
  run(count: number, side: '1' | '2', runId: number): Promise<Float64Array> {
    const latencies = new Float64Array(count);
    let sent = 0;
    let acked = 0;
    return new Promise((resolve) => {
      const sendSome = () => {
        const upTo = Math.min(count, acked + WINDOW);
        let batch = '';
        const now = performance.now();
        for (; sent < upTo; sent++) {
          const clOrdId = `${runId}-${sent}`;
          this.#sentAt.set(clOrdId, now);
          batch += this.#frame('D', [
            [11, clOrdId],
            [55, 'AAPL'],
            [54, side],
            [60, this.#stamps.format(Date.now())],
            [38, '1'],
            [40, '2'],
            [44, '10000'],
          ]);
        }
        if (batch !== '') this.#socket.write(batch, 'latin1');
      };
      this.#onFrame = (frame) => {
        // Only the first report of each order (new, or rejected) acknowledges it; read with
        // indexOf rather than a whole decode, as the client shares the machine's cores.
        if (!frame.includes('\x0135=8\x01')) return;
        const execType = field(frame, '\x01150=');
        if (execType !== '0' && execType !== '8') return;
        if (execType === '8') throw new Error(`order rejected: ${field(frame, '\x0158=')}`);
        const clOrdId = field(frame, '\x0111=');
        const at = this.#sentAt.get(clOrdId)!;
        this.#sentAt.delete(clOrdId);
        latencies[acked++] = performance.now() - at;
        if (acked === count) resolve(latencies);
        else if (sent - acked <= WINDOW / 2) sendSome();
      };
      sendSome();
    });
  }

  close(): void {
    this.#socket.destroy();
  }

  #frame(type: string, body: Field[]): string {
    return encode([
      [35, type],
      [49, this.#sender],
      [56, 'TESSERA'],
      [34, String(this.#seq++)],
      [52, this.#stamps.format(Date.now())],
      ...body,
    ]);
  }

  #write(type: string, body: Field[]): void {
    this.#socket.write(this.#frame(type, body), 'latin1');
  }
}

function field(frame: string, key: string): string {
  const at = frame.indexOf(key) + key.length;
  return frame.slice(at, frame.indexOf('\x01', at));
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function bench(): Promise<void> {
  const child = spawn(process.execPath, [...process.execArgv, import.meta.filename, '--serve'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: process.env,
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const nextLine = async () => String((await lines.next()).value);
  const port = Number((await nextLine()).split(' ')[1]);
  const buyer = await Trader.logOn(port, 'BUYER');
  const seller = await Trader.logOn(port, 'SELLER');
  console.log(
    `FIX on loopback: ${ORDERS.toLocaleString('en')} orders a run (two sessions, half each), window ${WINDOW} a session, journal synchronous=${SYNC}; ${cpus().length} × ${cpus()[0]?.model ?? '?'}; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const results: Array<{
    perSecond: number;
    perCpuSecond: number;
    p50: number;
    p99: number;
    serverCpu: number;
  }> = [];
  // Run 0 warms up (JIT, allocation) and is not counted.
  for (let run = 0; run <= RUNS; run++) {
    child.stdin.write('cpu\n');
    await nextLine();
    const start = performance.now();
    const [buys, sells] = await Promise.all([
      buyer.run(ORDERS / 2, '1', run),
      seller.run(ORDERS / 2, '2', run),
    ]);
    const seconds = (performance.now() - start) / 1000;
    child.stdin.write('cpu\n');
    const serverCpu = Number((await nextLine()).split(' ')[1]);
    const all = new Float64Array(ORDERS);
    all.set(buys);
    all.set(sells, buys.length);
    all.sort();
    const result = {
      perSecond: ORDERS / seconds,
      perCpuSecond: ORDERS / serverCpu,
      p50: percentile(all, 0.5),
      p99: percentile(all, 0.99),
      serverCpu,
    };
    if (run > 0) results.push(result);
    console.log(
      `  ${run === 0 ? 'warm-up' : `run ${run}`}: ${Math.round(result.perSecond).toLocaleString('en')} orders/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms; exchange process CPU ${serverCpu.toFixed(2)} s of ${seconds.toFixed(2)} s (${Math.round(result.perCpuSecond).toLocaleString('en')} orders per CPU-second)`,
    );
  }
  results.sort((a, b) => a.perSecond - b.perSecond);
  const median = results[Math.floor(results.length / 2)]!;
  console.log(
    `FIX median of ${RUNS}: ${Math.round(median.perSecond).toLocaleString('en')} orders/s (goal ≥ 50,000), p99 ${median.p99.toFixed(2)} ms; ${Math.round(median.perCpuSecond).toLocaleString('en')} orders per CPU-second of the exchange process; load average after ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  buyer.close();
  seller.close();
  child.stdin.end();
  await new Promise((resolve) => child.once('exit', resolve));
}

if (process.argv.includes('--serve')) await serve();
else await bench();
