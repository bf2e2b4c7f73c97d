/**
 * The real mail peers (tools/mail-tools.sh installs them): spamd, clamd, dnsmasq and Postfix's
 * smtp-sink, each started for one test on a free loopback port in a temporary directory, in a
 * process group of its own that the test's teardown stops. Nothing here touches the shared servers.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort, tempDir, toolCache } from '@tessera/testkit';
import type { Test } from 'tap';

const run = promisify(execFile);
const INSTALL = fileURLToPath(new URL('../../../../tools/install.sh', import.meta.url));

let installed: Promise<void> | undefined;

/** tools/install.sh mail, once per test process (a no-op when everything is there). */
export function installMailTools(): Promise<void> {
  installed ??= run('bash', [INSTALL, 'mail'], { timeout: 600_000 }).then(() => undefined);
  return installed;
}

export interface Peer {
  readonly port: number;
  readonly dir: string;
  readonly process: ChildProcess;
  /** What the process printed (stdout and stderr). */
  output(): string;
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts `command` in its own process group and waits until `port` accepts connections. */
async function startPeer(
  t: Test,
  name: string,
  port: number,
  dir: string,
  command: string,
  args: string[],
  timeoutMs = 120_000,
): Promise<Peer> {
  const child = spawn(command, args, { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return resolve();
      child.once('exit', () => resolve());
      process.kill(-child.pid, 'SIGTERM');
      // spamd's children finish their message first; a peer that hangs is killed.
      setTimeout(() => {
        if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
          process.kill(-child.pid, 'SIGKILL');
        }
      }, 5000).unref();
    });
  t.teardown(stop);
  const deadline = Date.now() + timeoutMs;
  while (!(await accepts(port))) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline)
      throw new Error(`${name} did not listen on ${port} within ${timeoutMs} ms:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { port, dir, process: child, output: () => output };
}

/** SpamAssassin's spamd with Debian's shipped rules, network tests off (loopback only here). */
export async function startSpamd(t: Test): Promise<Peer & { url: string }> {
  await installMailTools();
  const dir = tempDir(t, 'tessera-spamd-');
  const port = await freePort();
  const peer = await startPeer(t, 'spamd', port, dir, '/usr/sbin/spamd', [
    `--listen=127.0.0.1:${port}`,
    '--min-children=1',
    '--max-children=2',
    '--nouser-config',
    '--local',
    '--syslog=stderr',
    `--pidfile=${join(dir, 'spamd.pid')}`,
    '-u',
    'nobody',
  ]);
  return { ...peer, url: `spamd://127.0.0.1:${port}` };
}

/** ClamAV's clamd over the locally made EICAR signature database (no download). */
export async function startClamd(t: Test): Promise<Peer & { url: string }> {
  await installMailTools();
  const dir = tempDir(t, 'tessera-clamd-');
  const port = await freePort();
  const conf = join(dir, 'clamd.conf');
  writeFileSync(
    conf,
    [
      `TCPSocket ${port}`,
      'TCPAddr 127.0.0.1',
      `DatabaseDirectory ${join(toolCache(), 'clamav-db')}`,
      'Foreground yes',
      `TemporaryDirectory ${dir}`,
      `LogFile ${join(dir, 'clamd.log')}`,
      'StreamMaxLength 30M',
    ].join('\n') + '\n',
  );
  const peer = await startPeer(t, 'clamd', port, dir, '/usr/sbin/clamd', ['-c', conf]);
  return { ...peer, url: `clamd://127.0.0.1:${port}` };
}

/** dnsmasq as the authoritative answer for test domains: MX and A records on loopback. */
export async function startDnsmasq(
  t: Test,
  zone: { mx?: Record<string, { exchange: string; priority: number }[]>; a?: Record<string, string> },
): Promise<Peer & { server: string }> {
  await installMailTools();
  const dir = tempDir(t, 'tessera-dnsmasq-');
  const port = await freePort();
  const args = [
    '--keep-in-foreground',
    '--no-resolv',
    '--no-hosts',
    '--no-daemon',
    '--log-queries',
    `--port=${port}`,
    '--listen-address=127.0.0.1',
    '--bind-interfaces',
    `--pid-file=${join(dir, 'dnsmasq.pid')}`,
    '--user=root',
  ];
  for (const [domain, records] of Object.entries(zone.mx ?? {})) {
    for (const r of records) args.push(`--mx-host=${domain},${r.exchange},${r.priority}`);
  }
  for (const [host, address] of Object.entries(zone.a ?? {})) args.push(`--host-record=${host},${address}`);
  // dnsmasq answers on UDP; the TCP listener it also opens is what startPeer waits for.
  const peer = await startPeer(t, 'dnsmasq', port, dir, '/usr/sbin/dnsmasq', args);
  return { ...peer, server: `127.0.0.1:${port}` };
}

/** Postfix's smtp-sink: accepts and discards (or answers `code` to RCPT/DATA when asked). */
export async function startSmtpSink(
  t: Test,
  options: { port?: number; host?: string; extra?: string[]; backlog?: number } = {},
): Promise<Peer> {
  await installMailTools();
  const dir = tempDir(t, 'tessera-smtp-sink-');
  const port = options.port ?? (await freePort());
  return startPeer(t, 'smtp-sink', port, dir, '/usr/sbin/smtp-sink', [
    ...(options.extra ?? []),
    `${options.host ?? '127.0.0.1'}:${port}`,
    String(options.backlog ?? 128),
  ]);
}
