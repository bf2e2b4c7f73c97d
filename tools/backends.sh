#!/usr/bin/env bash
# Starts, stops and reports the real servers on loopback, with data under a temporary directory.
#   tools/backends.sh up [redis] [nats]     install if needed, start, wait until each answers
#   tools/backends.sh down [redis] [nats]   stop them; no process is left behind
#   tools/backends.sh status
# Ports: REDIS_PORT (16379), NATS_PORT (14222), MINIO_PORT (19000), NGINX_PORT (18088, proxying to NGINX_UPSTREAM,
# default 127.0.0.1:8080: the local stand-in for the ingress). Prints NAME=URL for each server.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

REDIS_PORT="${REDIS_PORT:-16379}"
NATS_PORT="${NATS_PORT:-14222}"
MINIO_PORT="${MINIO_PORT:-19000}"
NGINX_PORT="${NGINX_PORT:-18088}"
NGINX_UPSTREAM="${NGINX_UPSTREAM:-127.0.0.1:8080}"

nginx_config() {
  local dir="$TESSERA_RUN/nginx-data"
  mkdir -p "$dir/logs"
  cat >"$dir/nginx.conf" <<CONF
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $dir/body;
  proxy_temp_path $dir/proxy;
  fastcgi_temp_path $dir/fastcgi;
  uwsgi_temp_path $dir/uwsgi;
  scgi_temp_path $dir/scgi;
  upstream tessera { server $NGINX_UPSTREAM; keepalive 64; }
  server {
    listen 127.0.0.1:$NGINX_PORT;
    location / {
      proxy_pass http://tessera;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$host;
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
    }
  }
}
CONF
  echo "$dir/nginx.conf"
}

pidfile() { echo "$TESSERA_RUN/$1.pid"; }
running() { [[ -f $(pidfile "$1") ]] && kill -0 "$(cat "$(pidfile "$1")")" 2>/dev/null; }

start() {
  local name=$1 port=$2
  shift 2
  if running "$name"; then return; fi
  local dir="$TESSERA_RUN/$name-data" logfile="$TESSERA_RUN/$name.log"
  [[ $name == nginx ]] || { rm -rf "$dir" && mkdir -p "$dir"; }
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
      minio)
        export MINIO_ROOT_USER=tessera MINIO_ROOT_PASSWORD=tessera-secret-key MINIO_BROWSER=off
        start minio "$MINIO_PORT" "$TESSERA_BIN/minio" server --quiet --address "127.0.0.1:$MINIO_PORT" \
          "$TESSERA_RUN/minio-data"
        echo "MINIO_URL=http://tessera:tessera-secret-key@127.0.0.1:$MINIO_PORT"
        ;;
      nginx)
        rm -rf "$TESSERA_RUN/nginx-data"
        local config
        config=$(nginx_config)
        start nginx "$NGINX_PORT" /usr/sbin/nginx -c "$config" -p "$TESSERA_RUN/nginx-data" -g "daemon off;"
        echo "NGINX_URL=http://127.0.0.1:$NGINX_PORT"
        ;;
      *) die "unknown server '$name' (known: redis nats minio nginx)" ;;
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
  for name in redis nats minio nginx; do
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
  *) die "usage: tools/backends.sh up|down|status [redis] [nats] [minio] [nginx]" ;;
esac
