/**
 * CPU time of processes, from /proc (Linux only): what each process of a benchmark's path spends
 * per request. On a machine whose cores are shared, requests per second say how much was left
 * over for the benchmark; CPU per request says what a request costs, and where.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ: 100 on every Linux that matters here). */
const TICKS_PER_SECOND = 100;

/** The user + system CPU of a process (all its threads) in ms; 0 once it is gone. */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) in parentheses: utime is the 14th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The CPU of this process's children that have exited and been waited for (wrk, redis-benchmark). */
export function reapedChildrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND;
}

/** The processes whose parent is `pid` (nginx's workers). */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

/** The process listening on a TCP port of loopback (a shared server), if this user may see it. */
export function listeningPid(port: number): number | undefined {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.trim().split('\n').slice(1)) {
      const cells = line.trim().split(/\s+/);
      // local_address is HEX_IP:HEX_PORT; state 0A is LISTEN.
      if (cells[3] === '0A' && Number.parseInt(cells[1]!.split(':')[1]!, 16) === port) inodes.add(cells[9]!);
    }
  }
  if (inodes.size === 0) return undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const link = readlinkSync(`/proc/${entry}/fd/${fd}`);
        if (link.startsWith('socket:[') && inodes.has(link.slice(8, -1))) return Number(entry);
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}

/** Named groups of processes; `reaped` stands for the children this process waited for. */
export type ProcessGroups = Record<string, readonly number[] | 'reaped'>;

function groupCpuMs(pids: readonly number[] | 'reaped'): number {
  if (pids === 'reaped') return reapedChildrenCpuMs();
  return pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
}

/**
 * Runs `work` and returns the CPU each group spent meanwhile, in µs per request (`requests`
 * read from its result), with their sum as `total`.
 */
export function cpuPerRequest<T>(
  groups: ProcessGroups,
  work: () => T,
  requests: (result: T) => number,
): { result: T; microseconds: Record<string, number> } {
  const before = Object.fromEntries(Object.entries(groups).map(([name, pids]) => [name, groupCpuMs(pids)]));
  const result = work();
  const count = Math.max(1, requests(result));
  const microseconds: Record<string, number> = {};
  let total = 0;
  for (const [name, pids] of Object.entries(groups)) {
    const us = Math.round(((groupCpuMs(pids) - before[name]!) * 1000) / count);
    microseconds[name] = us;
    total += us;
  }
  microseconds.total = total;
  return { result, microseconds };
}
