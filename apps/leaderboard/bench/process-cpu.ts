/**
 * CPU time of processes and threads, from /proc (Linux only): what each process (or thread) of a
 * benchmark's path spends per request. On a machine whose cores are shared, requests per second
 * say how much was left over for the benchmark; CPU per request says what a request costs, and
 * where. The one parser of /proc's CPU figures for the leaderboard's benchmarks.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ: 100 on every Linux that matters here). */
const TICKS_PER_SECOND = 100;

/** A process: its id, or `self` for this one. */
export type Pid = number | 'self';

/**
 * The fields of a /proc stat file after the command name (which may hold spaces, in
 * parentheses): index 0 is proc(5)'s field 3 (state), utime (field 14) is index 11.
 */
function statFields(path: string): string[] {
  const stat = readFileSync(path, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** The user + system CPU of a process (all its threads) in ms; 0 once it is gone. */
export function processCpuMs(pid: Pid): number {
  try {
    const fields = statFields(`/proc/${pid}/stat`);
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The CPU of this process's children that have exited and been waited for (wrk, redis-benchmark). */
export function reapedChildrenCpuMs(): number {
  const fields = statFields('/proc/self/stat');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND;
}

/** The ids of a process's threads (the main thread's is the process's own id). */
export function threadIds(pid: Pid): number[] {
  return readdirSync(`/proc/${pid}/task`).map(Number);
}

/**
 * A thread's time on a CPU so far, in µs: the first field of its schedstat (ns), finer than the
 * stat file's ticks. 0 once the thread is gone (a helper thread that ended in between).
 */
export function threadCpuUs(pid: Pid, tid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
  } catch {
    return 0;
  }
}

/** The processes whose parent is `pid` (nginx's workers). */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (Number(statFields(`/proc/${entry}/stat`)[1]) === pid) children.push(Number(entry));
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
