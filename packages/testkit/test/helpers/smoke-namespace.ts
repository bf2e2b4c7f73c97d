/**
 * The cluster smoke test's namespace: kubectl and `apply` bound to it, its pods, and waiting in it
 * with diagnostics (the pods, the events, the daemons' logs) when something does not come up.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { kubectl, type Cluster } from '../../src/cluster.ts';
import { pollUntil } from '../../src/poll.ts';

const run = promisify(execFile);

interface PodList {
  items: {
    metadata: { name: string; deletionTimestamp?: string };
    status: {
      phase?: string;
      conditions?: { type: string; status: string; reason?: string }[];
      containerStatuses?: { restartCount: number; lastState: { terminated?: { reason?: string } } }[];
    };
  }[];
}

export interface SmokeNamespace {
  readonly k: (...args: string[]) => Promise<string>;
  readonly apply: (...objects: object[]) => Promise<string>;
  /** Polls `check` until it is true; on timeout fails with what it waited for and the diagnostics. */
  readonly until: (what: string, check: () => Promise<boolean>, ms?: number) => Promise<void>;
  /** Runs `step`; a failure carries the diagnostics. */
  readonly diagnosed: <T>(step: () => Promise<T>) => Promise<T>;
  readonly pods: (selector: string) => Promise<PodList['items']>;
}

export function smokeNamespace(target: Cluster, namespace: string): SmokeNamespace {
  const k = (...args: string[]) => kubectl(target, ['--namespace', namespace, ...args]);
  const apply = (...objects: object[]) =>
    kubectl(target, ['--namespace', namespace, 'apply', '-f', '-'], {
      input: objects.map((o) => JSON.stringify(o)).join('\n'),
    });

  /** What to look at when something does not come up: the pods, the events, the daemons' logs. */
  async function diagnostics(): Promise<string> {
    const parts: string[] = [];
    const section = async (title: string, what: () => Promise<string>) => {
      try {
        parts.push(`--- ${title} ---\n${(await what()).trim()}`);
      } catch (error) {
        parts.push(`--- ${title}: ${(error as Error).message}`);
      }
    };
    await section('pods', () => k('get', 'pods', '--output', 'wide'));
    await section('events', async () =>
      (await k('get', 'events', '--sort-by=.lastTimestamp')).split('\n').slice(-30).join('\n'),
    );
    for (const daemon of ['kubelet', 'containerd', 'traefik', 'coredns']) {
      if (target.logs === undefined) break;
      await section(
        `${daemon} log`,
        async () => (await run('tail', ['-n', '20', join(target.logs!, `${daemon}.log`)])).stdout,
      );
    }
    return parts.join('\n');
  }

  function until(what: string, check: () => Promise<boolean>, ms = 120_000): Promise<void> {
    return pollUntil(what, check, { ms, describe: diagnostics });
  }

  async function diagnosed<T>(step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${await diagnostics()}`, { cause: error });
    }
  }

  const pods = async (selector: string): Promise<PodList['items']> =>
    (JSON.parse(await k('get', 'pods', '--selector', selector, '--output', 'json')) as PodList).items;

  return { k, apply, until, diagnosed, pods };
}
