// k6 load for the leaderboard: game servers posting wins, clients reading the top 10 and ranks.
// Thresholds (p99 latency, error rate) decide the exit code.
//
//   BASE_URL=http://<ingress> TOKEN_WRITE=… TOKEN_READ=… k6 run k8s-tests/load/leaderboard.js
//
// Settings (environment): DURATION (default 30s), WRITE_RATE, TOP_RATE, RANK_RATE (requests/s,
// default 100, 50, 50), PLAYERS (distinct user ids, default 1000), P99_MS (default 500), HOST (a
// Host header, for an ingress rule with a host when BASE_URL is the controller's address).
import { check } from 'k6';
import http from 'k6/http';
import exec from 'k6/execution';

const BASE_URL = (__ENV.BASE_URL || 'http://127.0.0.1:8080').replace(/\/$/, '');
const DURATION = __ENV.DURATION || '30s';
const PLAYERS = Number(__ENV.PLAYERS || 1000);
const P99_MS = Number(__ENV.P99_MS || 500);
const RUN = `${Date.now().toString(36)}`; // match ids of one run never collide with another's

function rate(name, fallback) {
  const value = Number(__ENV[name] || fallback);
  return {
    executor: 'constant-arrival-rate',
    rate: value,
    timeUnit: '1s',
    duration: DURATION,
    preAllocatedVUs: Math.max(2, Math.ceil(value / 20)),
    maxVUs: Math.max(10, Math.ceil(value / 2)),
  };
}

export const options = {
  scenarios: {
    game_servers: { ...rate('WRITE_RATE', 100), exec: 'postWin' },
    top10: { ...rate('TOP_RATE', 50), exec: 'readTop' },
    ranks: { ...rate('RANK_RATE', 50), exec: 'readRank' },
  },
  thresholds: {
    http_req_failed: ['rate<0.01'],
    [`http_req_duration{scenario:game_servers}`]: [`p(99)<${P99_MS}`],
    [`http_req_duration{scenario:top10}`]: [`p(99)<${P99_MS}`],
    [`http_req_duration{scenario:ranks}`]: [`p(99)<${P99_MS}`],
    checks: ['rate>0.99'],
  },
  summaryTrendStats: ['med', 'p(90)', 'p(99)', 'max'],
};

const headers = (token) => ({
  Authorization: `Bearer ${token}`,
  'Content-Type': 'application/json',
  ...(__ENV.HOST ? { Host: __ENV.HOST } : {}),
});
const player = () => `player-${Math.floor(Math.random() * PLAYERS)}`;

export function postWin() {
  const body = JSON.stringify({
    user_id: player(),
    points: 1 + Math.floor(Math.random() * 10),
    match_id: `k6-${RUN}-${exec.vu.idInTest}-${exec.scenario.iterationInTest}`,
  });
  const res = http.post(`${BASE_URL}/v1/scores`, body, { headers: headers(__ENV.TOKEN_WRITE) });
  check(res, { 'win recorded (200)': (r) => r.status === 200 && r.json('user_info.rank') >= 1 });
}

export function readTop() {
  const res = http.get(`${BASE_URL}/v1/scores?limit=10`, { headers: headers(__ENV.TOKEN_READ) });
  check(res, { 'top 10 (200, at most 10)': (r) => r.status === 200 && r.json('data').length <= 10 });
}

// A player without a win yet is a 404, which is an answer, not an error.
const rankStatuses = http.expectedStatuses(200, 404);

export function readRank() {
  const res = http.get(`${BASE_URL}/v1/scores/${player()}`, {
    headers: headers(__ENV.TOKEN_READ),
    responseCallback: rankStatuses,
  });
  check(res, { 'rank (200 or 404)': (r) => r.status === 200 || r.status === 404 });
}
