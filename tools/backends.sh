#!/usr/bin/env bash
# Starts, stops and reports the real servers on loopback, with data under a temporary directory.
#   tools/backends.sh up [redis] [nats]     install if needed, start, wait until each answers
#   tools/backends.sh down [redis] [nats]   stop them; no process is left behind
#   tools/backends.sh status
# Ports: REDIS_PORT (16379), NATS_PORT (14222). Prints NAME=URL lines for each server started.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

REDIS_PORT="${REDIS_PORT:-16379}"
NATS_PORT="${NATS_PORT:-14222}"

pidfile() { echo "$TESSERA_RUN/$1.pid"; }
running() { [[ -f $(pidfile "$1") ]] && kill -0 "$(cat "$(pidfile "$1")")" 2>/dev/null; }

start() {
  local name=$1 port=$2
  shift 2
  if running "$name"; then return; fi
  local dir="$TESSERA_RUN/$name-data" logfile="$TESSERA_RUN/$name.log"
  rm -rf "$dir" && mkdir -p "$dir"
  "$@" >"$logfile" 2>&1 &
  echo $! >"$(pidfile "$name")"
  wait_for_port "$name" "$port" "$logfile"
}

up() {
  "$(dirname "$0")/install.sh" "$@"
  for name in "$@"; do
    case "$name" in
      redis)
        start redis "$REDIS_PORT" redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no \
          --dir "$TESSERA_RUN/redis-data"
        echo "REDIS_URL=redis://127.0.0.1:$REDIS_PORT"
        ;;
      nats)
        start nats "$NATS_PORT" "$TESSERA_BIN/nats-server" -a 127.0.0.1 -p "$NATS_PORT" -js \
          -sd "$TESSERA_RUN/nats-data"
        echo "NATS_URL=nats://127.0.0.1:$NATS_PORT"
        ;;
      *) die "unknown server '$name' (known: redis nats)" ;;
    esac
  done
}

down() {
  for name in "$@"; do
    local file
    file=$(pidfile "$name")
    [[ -f $file ]] || continue
    local pid
    pid=$(cat "$file")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$file"
    rm -rf "$TESSERA_RUN/$name-data"
  done
}

status() {
  for name in redis nats; do
    if running "$name"; then echo "$name: running (pid $(cat "$(pidfile "$name")"))"; else echo "$name: stopped"; fi
  done
}

command=${1:-status}
shift || true
servers=("$@")
((${#servers[@]})) || servers=(redis nats)
case "$command" in
  up) up "${servers[@]}" ;;
  down) down "${servers[@]}" ;;
  status) status ;;
  *) die "usage: tools/backends.sh up|down|status [redis] [nats]" ;;
esac
