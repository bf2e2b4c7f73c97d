/** The distributed benchmark's report: the ratios, the CPU per request by process, the saved results. */
import { loadavg } from 'node:os';
import { CONNECTIONS, PLAYERS, SECONDS } from './load-drivers.ts';
import type { PhaseResults } from './distributed-phases.ts';
import { machine, printTable, saveResults } from './report.ts';

export function report({ updates, reads, ceiling, zincrby, zrevrank }: PhaseResults): void {
  const load = loadavg().map((l) => l.toFixed(2));
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  const rate = (figures: { perSecond: number }) => figures.perSecond;
  printTable('results (through nginx to two api processes vs redis-benchmark on the same Redis)', [
    [
      'score updates / ZINCRBY',
      `${rate(updates.result)}/s vs ${rate(zincrby.result)}/s: ratio ${ratio(rate(updates.result), rate(zincrby.result))}`,
    ],
    [
      'rank reads / ZREVRANK',
      `${rate(reads.result)}/s vs ${rate(zrevrank.result)}/s: ratio ${ratio(rate(reads.result), rate(zrevrank.result))}`,
    ],
    [
      'ceiling / ZREVRANK',
      `${rate(ceiling.result)}/s vs ${rate(zrevrank.result)}/s: ratio ${ratio(rate(ceiling.result), rate(zrevrank.result))}`,
    ],
    ['score updates / ceiling', `ratio ${ratio(rate(updates.result), rate(ceiling.result))}`],
    ['rank reads / ceiling', `ratio ${ratio(rate(reads.result), rate(ceiling.result))}`],
    ['load average after', load.join(' ')],
  ]);
  const cpuRow = (name: string, figures: { microseconds: Record<string, number> }): [string, string] => [
    name,
    Object.entries(figures.microseconds)
      .map(([group, us]) => `${group} ${us}`)
      .join(' · '),
  ];
  printTable('CPU per request, µs, by process (the servers are shared: other work on them counts too)', [
    cpuRow('score updates', updates),
    cpuRow('rank reads', reads),
    cpuRow('ceiling', ceiling),
    cpuRow('ZINCRBY', zincrby),
    cpuRow('ZREVRANK', zrevrank),
  ]);
  saveResults('leaderboard-distributed-http', {
    machine: machine(),
    loadavg: load,
    seconds: SECONDS,
    connections: CONNECTIONS,
    players: PLAYERS,
    updates: { ...updates.result, cpuMicroseconds: updates.microseconds },
    reads: { ...reads.result, cpuMicroseconds: reads.microseconds },
    ceiling: { ...ceiling.result, cpuMicroseconds: ceiling.microseconds },
    zincrby: { ...zincrby.result, cpuMicroseconds: zincrby.microseconds },
    zrevrank: { ...zrevrank.result, cpuMicroseconds: zrevrank.microseconds },
  });
}
