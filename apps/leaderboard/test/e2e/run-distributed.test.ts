// `make run-distributed` (tools/run-distributed.sh) with real processes on free ports of its own:
// a score POSTed through nginx is read through both apis; a kill -9 of the app processes and a new
// run (which reuses the servers still running) lose nothing; SIGINT stops what each run started
// and nothing is left running; a run after everything stopped finds the data again.
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { tempDir } from '@tessera/testkit';
import t from 'tap';
import {
  alive,
  pidFiles,
  runPorts,
  runToken,
  startRun,
  type DistributedRun,
  type RunPorts,
} from '../helpers/run-distributed.ts';

// Cassandra alone takes 20-60 s to start on a busy 2-core machine, and it starts twice here.
t.setTimeout(1_500_000);

const dataDir = join(tempDir(t, 'tessera-run-distributed-'), 'data');
const ports = await runPorts();
const [api1, api2] = ports.API_PORTS.split(' ');
const nginx = `http://127.0.0.1:${ports.PORT}`;
const token = () => runToken(dataDir, ['scores:write', 'scores:read']);
const runs: DistributedRun[] = [];
// Whatever a failed assertion left: every run stopped, then any server still up.
t.teardown(async () => {
  for (const run of runs) await run.stop('SIGTERM');
  for (const pid of Object.values(pidFiles(dataDir, 'servers')))
    if (alive(pid)) process.kill(-pid, 'SIGKILL');
});

async function start(): Promise<DistributedRun> {
  const run = await startRun(dataDir, ports);
  runs.push(run);
  return run;
}

async function post(userId: string, points: number, matchId: string): Promise<number> {
  const response = await fetch(`${nginx}/v1/scores`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await token()}`, 'content-type': 'application/json' },
    body: JSON.stringify({ user_id: userId, points, match_id: matchId }),
  });
  return response.status;
}

async function scoreVia(port: string, userId: string): Promise<unknown> {
  const response = await fetch(`http://127.0.0.1:${port}/v1/scores/${userId}`, {
    headers: { authorization: `Bearer ${await token()}` },
  });
  return ((await response.json()) as { user_info?: { score: number } }).user_info?.score;
}

function listening(port: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const allPorts = (p: RunPorts) => [
  p.PORT,
  ...p.API_PORTS.split(' '),
  p.ARCHIVER_PORT,
  p.REDIS_PORT,
  p.NATS_PORT,
  p.CASSANDRA_PORT,
];

t.test('a first run starts everything; a score POSTed through nginx reads through both apis', async (t) => {
  const first = await start();
  t.match(first.output.join('\n'), `on http://127.0.0.1:${ports.PORT}`, 'it says where it listens');
  t.equal(await post('ada', 3, 'm-1'), 200);
  t.equal(await scoreVia(api1!, 'ada'), 3, 'read through api-1');
  t.equal(await scoreVia(api2!, 'ada'), 3, 'read through api-2');

  const servers = pidFiles(dataDir, 'servers');
  t.same(Object.keys(servers).sort(), ['cassandra', 'nats', 'nginx', 'redis']);

  t.test('kill -9 of the app processes, then a new run reusing the servers, loses nothing', async (t) => {
    for (const pid of Object.values(pidFiles(dataDir, 'apps'))) process.kill(pid, 'SIGKILL');
    const second = await start();
    t.same(pidFiles(dataDir, 'servers'), servers, 'the same server processes');
    t.equal(await post('ada', 4, 'm-2'), 200);
    t.equal(await post('ada', 4, 'm-2'), 200, 'a retry');
    t.equal(await scoreVia(api1!, 'ada'), 7, 'both wins, the retry once (api-1)');
    t.equal(await scoreVia(api2!, 'ada'), 7, 'both wins, the retry once (api-2)');

    const apps = pidFiles(dataDir, 'apps');
    t.same((await second.stop('SIGINT')).code, 130, 'SIGINT stops the second run');
    t.ok(
      Object.values(apps).every((pid) => !alive(pid)),
      'its app processes are gone',
    );
    t.ok(Object.values(servers).every(alive), 'the servers it did not start are left running');
  });

  t.test('SIGINT stops everything the first run started', async (t) => {
    t.equal((await first.stop('SIGINT')).code, 130);
    t.ok(
      Object.values(servers).every((pid) => !alive(pid)),
      'no server process is left',
    );
    for (const port of allPorts(ports)) t.notOk(await listening(port), `nothing listens on ${port}`);
  });
});

t.test('a run after everything stopped finds the data again', async (t) => {
  const third = await start();
  t.equal(await scoreVia(api2!, 'ada'), 7);
  t.equal(await post('ada', 3, 'm-1'), 200, 'a retry of a win recorded two runs ago');
  t.equal(await scoreVia(api1!, 'ada'), 7, 'still counted once');
  const servers = pidFiles(dataDir, 'servers');
  t.equal((await third.stop('SIGINT')).code, 130);
  t.ok(
    Object.values(servers).every((pid) => !alive(pid)),
    'no server process is left',
  );
});
