#!/usr/bin/env bash
# Shared by the tools/ scripts: where things are cached and how to wait for a port.
set -euo pipefail

TESSERA_CACHE="${TESSERA_CACHE:-$HOME/.cache/tessera}"
TESSERA_BIN="$TESSERA_CACHE/bin"
TESSERA_RUN="${TESSERA_RUN:-${TMPDIR:-/tmp}/tessera-backends}"
mkdir -p "$TESSERA_BIN" "$TESSERA_RUN"

# Pinned versions (bump here, nowhere else).
NATS_SERVER_VERSION="v2.12.5"
HELM_VERSION="v3.22.0"
KUBECONFORM_VERSION="v0.8.0"
SCHEMATHESIS_VERSION="4.32.5"
K6_VERSION="v1.4.2"
# MinIO tags releases by date, not semver: pin the module's pseudo-version.
MINIO_VERSION="v0.0.0-20260212201848-7aac2a2c5b7c"

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

# Waits until 127.0.0.1:$2 accepts connections; on timeout shows the log $3 and fails.
wait_for_port() {
  local name=$1 port=$2 logfile=$3 deadline=$((SECONDS + ${4:-30}))
  until (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
    if ((SECONDS >= deadline)); then
      echo "--- $name log ($logfile) ---" >&2
      tail -n 40 "$logfile" >&2 || true
      die "$name did not answer on 127.0.0.1:$port"
    fi
    sleep 0.2
  done
}
