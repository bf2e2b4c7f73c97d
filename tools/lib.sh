#!/usr/bin/env bash
# Shared by the tools/ scripts: where things are cached and how to wait for a port.
set -euo pipefail

TESSERA_CACHE="${TESSERA_CACHE:-$HOME/.cache/tessera}"
TESSERA_BIN="$TESSERA_CACHE/bin"
# Per user: two users' servers must not share pid files, logs or data.
TESSERA_RUN="${TESSERA_RUN:-${TMPDIR:-/tmp}/tessera-backends-$(id -u)}"
mkdir -p "$TESSERA_BIN" "$TESSERA_RUN"

# Pinned versions (bump here, nowhere else).
NATS_SERVER_VERSION="v2.12.5"
HELM_VERSION="v3.22.0"
KUBECONFORM_VERSION="v0.8.0"
SCHEMATHESIS_VERSION="4.32.5"
K6_VERSION="v1.4.2"
# MinIO tags releases by date, not semver: pin the module's pseudo-version.
MINIO_VERSION="v0.0.0-20260212201848-7aac2a2c5b7c"
HELM_UNITTEST_VERSION="v1.1.2"
CHART_TESTING_VERSION="v3.14.0"
YAMLLINT_VERSION="1.38.0"
YAMALE_VERSION="6.1.0"
# The API server, and the newest patch of the etcd minor it is built against (its go.mod
# requires the etcd 3.6 client).
KUBERNETES_VERSION="v1.34.4"
ETCD_VERSION="v3.6.16"
# The single-node cluster's DNS and ingress controller (Traefik v3.7 replaces a nested local module
# that is not published on its own, so it cannot be built from the module proxy).
COREDNS_VERSION="v1.15.0"
TRAEFIK_VERSION="v3.6.12"
CASSANDRA_VERSION="5.0.8"
ELASTICSEARCH_VERSION="8.19.8"

log() { echo "tools: $*" >&2; }
die() { echo "tools: error: $*" >&2; exit 1; }

as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi
}

# apt-get install with one `apt-get update` retry (a fresh machine has no package lists).
apt_install() {
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" >/dev/null 2>&1 ||
    { as_root apt-get update >/dev/null && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" >/dev/null; }
}

# Waits until `curl` (given its arguments) gets a 2xx answer; on timeout shows the log and fails.
wait_for_http() {
  local name=$1 logfile=$2 timeout=$3
  shift 3
  local deadline=$((SECONDS + timeout))
  until curl --silent --fail --max-time 5 --output /dev/null "$@"; do
    if ((SECONDS >= deadline)); then
      echo "--- $name log ($logfile) ---" >&2
      tail -n 40 "$logfile" >&2 || true
      die "$name did not become ready within $timeout s"
    fi
    sleep 0.5
  done
}

# Waits until 127.0.0.1:$2 accepts connections; on timeout, or when process $5 (if given) has
# exited, shows the log $3 and fails.
wait_for_port() {
  local name=$1 port=$2 logfile=$3 deadline=$((SECONDS + ${4:-30})) pid=${5:-}
  until (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
    local why=""
    if [[ -n $pid ]] && ! kill -0 "$pid" 2>/dev/null; then why="exited before it answered on 127.0.0.1:$port"; fi
    if ((SECONDS >= deadline)); then why="did not answer on 127.0.0.1:$port within ${4:-30} s"; fi
    if [[ -n $why ]]; then
      echo "--- $name log ($logfile) ---" >&2
      tail -n 40 "$logfile" >&2 || true
      die "$name $why"
    fi
    sleep 0.2
  done
}

# Fails when something already listens on 127.0.0.1:$2 (a server of an earlier run, or another
# program): a new server could not bind, and the tests would talk to the wrong one.
port_free() {
  local name=$1 port=$2 variable=$3
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    die "$name: 127.0.0.1:$port is already in use (stop what listens there, or set $variable)"
  fi
}
