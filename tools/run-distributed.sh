#!/usr/bin/env bash
# `make run-distributed`: the leaderboard as it runs on Kubernetes, on this machine. NATS
# (JetStream), Redis and Cassandra through tools/backends.sh, `tessera leaderboard migrate`, two
# `api` processes and one `archiver`, and nginx on PORT in front of the two apis. Ctrl-C stops
# everything this run started; servers an earlier run left running (same ports) are reused and
# left running.
#
# Everything lives under DATA_DIR (default ./data/distributed): the servers' data, pid files and
# logs (servers/), the app processes' logs and pid files (apps/), the token secret (app/). The
# servers keep their data across runs (backends.sh KEEP_DATA=1), so a stop and a new run, or a
# `kill -9` of the app processes and a new run, lose nothing.
#
# Ports (and variables): PORT 8080 (nginx), API_PORTS "8081 8082", ARCHIVER_PORT 8083, and the
# servers on ports of their own, apart from the test servers of `make backends-up`: REDIS_PORT
# 26379, NATS_PORT 24222, CASSANDRA_PORT 29042 (CASSANDRA_STORAGE_PORT 27000).
# TESSERA_CMD: how to run the CLI (default: the built one, node apps/tessera/bin/tessera.js).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"

PORT="${PORT:-8080}"
API_PORTS="${API_PORTS:-$((PORT + 1)) $((PORT + 2))}"
ARCHIVER_PORT="${ARCHIVER_PORT:-$((PORT + 3))}"
DATA_DIR="$(mkdir -p "${DATA_DIR:-./data/distributed}" && cd "${DATA_DIR:-./data/distributed}" && pwd)"
export REDIS_PORT="${REDIS_PORT:-26379}"
export NATS_PORT="${NATS_PORT:-24222}"
export CASSANDRA_PORT="${CASSANDRA_PORT:-29042}"
export CASSANDRA_STORAGE_PORT="${CASSANDRA_STORAGE_PORT:-27000}"
export TESSERA_RUN="$DATA_DIR/servers"
export KEEP_DATA=1
read -r -a TESSERA <<<"${TESSERA_CMD:-node $ROOT/apps/tessera/bin/tessera.js}"
APPS="$DATA_DIR/apps"
mkdir -p "$TESSERA_RUN" "$APPS" "$DATA_DIR/app"

say() { echo "run-distributed: $*" >&2; }
die() {
  say "error: $*"
  exit 1
}

# What this run started, stopped on the way out (in reverse): app pids, then backends.sh names.
APP_PIDS=()
SERVERS_STARTED=()
STOPPING=0
stop_all() {
  ((STOPPING)) && return 0
  STOPPING=1
  trap '' INT TERM
  local pid
  for pid in "${APP_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  # A graceful stop drains requests and closes the stores; a bounded wait, then SIGKILL.
  for _ in $(seq 150); do
    local alive=0
    for pid in "${APP_PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    ((alive)) || break
    sleep 0.1
  done
  for pid in "${APP_PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  rm -f "$APPS"/*.pid
  local i
  for ((i = ${#SERVERS_STARTED[@]} - 1; i >= 0; i--)); do
    bash "$ROOT/tools/backends.sh" down "${SERVERS_STARTED[i]}" || true
  done
  ((${#SERVERS_STARTED[@]})) && say "stopped ${SERVERS_STARTED[*]} (data kept in $TESSERA_RUN)"
  say "stopped"
}
trap 'stop_all' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# up NAME: starts (or reuses) one server and exports what backends.sh printed (REDIS_URL=…).
up() {
  local out line
  out=$(bash "$ROOT/tools/backends.sh" up "$1") || die "$1 did not start (log: $TESSERA_RUN/$1.log)"
  while IFS= read -r line; do
    case "$line" in
      STARTED=*) SERVERS_STARTED+=("$1") ;;
      *=*) export "${line?}" ;;
    esac
  done <<<"$out"
}

# A process of an earlier run whose runner was killed still holds its port: it is ours (its pid
# file is under DATA_DIR), so it is stopped rather than left to make the new one fail.
stop_leftover() {
  local file="$APPS/$1.pid" pid
  [[ -f $file ]] || return 0
  pid=$(cat "$file")
  if kill -0 "$pid" 2>/dev/null; then
    say "$1 of an earlier run is still running (pid $pid): stopping it"
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$file"
}

# launch NAME PORT ROLE: `tessera run leaderboard ROLE` on 127.0.0.1:PORT, logging to apps/NAME.log.
launch() {
  local name=$1 port=$2 role=$3
  stop_leftover "$name"
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    die "$name: 127.0.0.1:$port is already in use (set API_PORTS / ARCHIVER_PORT, or PORT)"
  fi
  HOST=127.0.0.1 PORT="$port" DATA_DIR="$DATA_DIR/app" TRUST_PROXY=true LOG_FORMAT=json \
    "${TESSERA[@]}" run leaderboard "$role" >>"$APPS/$name.log" 2>&1 </dev/null &
  local pid=$!
  APP_PIDS+=("$pid")
  echo "$pid" >"$APPS/$name.pid"
}

# Ready once /readyz answers 200 (an api catches its ranking up with the win log first).
wait_ready() {
  local name=$1 port=$2 pid=$3 deadline=$((SECONDS + ${START_TIMEOUT:-120}))
  until curl --silent --fail --max-time 2 --output /dev/null "http://127.0.0.1:$port/readyz"; do
    kill -0 "$pid" 2>/dev/null || { tail -n 20 "$APPS/$name.log" >&2; die "$name exited (log: $APPS/$name.log)"; }
    ((SECONDS < deadline)) || { tail -n 20 "$APPS/$name.log" >&2; die "$name not ready within ${START_TIMEOUT:-120} s"; }
    sleep 0.3
  done
}

say "servers (data in $TESSERA_RUN; Cassandra takes a while the first time)"
up nats
up redis
up cassandra

say "applying the Cassandra schema (tessera leaderboard migrate)"
DATA_DIR="$DATA_DIR/app" "${TESSERA[@]}" leaderboard migrate >"$APPS/migrate.log" 2>&1 ||
  { cat "$APPS/migrate.log" >&2; die "tessera leaderboard migrate failed"; }

read -r -a api_ports <<<"$API_PORTS"
names=() ports=()
for i in "${!api_ports[@]}"; do
  launch "api-$((i + 1))" "${api_ports[i]}" api
  names+=("api-$((i + 1))") ports+=("${api_ports[i]}")
done
launch archiver "$ARCHIVER_PORT" archiver
names+=(archiver) ports+=("$ARCHIVER_PORT")
for i in "${!names[@]}"; do wait_ready "${names[i]}" "${ports[i]}" "${APP_PIDS[i]}"; done

upstream=""
for port in "${api_ports[@]}"; do upstream+="127.0.0.1:$port "; done
NGINX_PORT="$PORT" NGINX_UPSTREAM="${upstream% }" up nginx

cat <<EOF

Tessera leaderboard, distributed, on http://127.0.0.1:$PORT (nginx in front of the api processes)
  NATS (JetStream)  $NATS_URL
  Redis             $REDIS_URL
  Cassandra         $CASSANDRA_URL
$(for i in "${!names[@]}"; do printf '  %-17s http://127.0.0.1:%s  (pid %s, log %s)\n' "${names[i]}" "${ports[i]}" "${APP_PIDS[i]}" "$APPS/${names[i]}.log"; done)
  data              $DATA_DIR
Get a token: npx tessera token --sub game-server-1 --scope "scores:write scores:read" --data-dir $DATA_DIR/app
Ctrl-C stops what this run started (the data stays for the next run).
EOF

# Until Ctrl-C (or SIGTERM). An app process that exits is reported once and not restarted: nginx
# sends its requests to the other api, and a new run starts the missing processes again.
reported=()
while :; do
  for i in "${!APP_PIDS[@]}"; do
    if [[ -z ${reported[i]:-} ]] && ! kill -0 "${APP_PIDS[i]}" 2>/dev/null; then
      reported[i]=1
      say "${names[i]} (pid ${APP_PIDS[i]}) exited; log: $APPS/${names[i]}.log"
    fi
  done
  sleep 1 &
  wait $! || true
done
