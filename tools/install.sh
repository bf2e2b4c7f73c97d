#!/usr/bin/env bash
# Installs the real servers and tools the tests use, from the package registries only, cached
# under ~/.cache/tessera. Idempotent: what is there is kept. Usage: tools/install.sh [redis] [nats] …
set -euo pipefail
source "$(dirname "$0")/lib.sh"

install_redis() {
  if command -v redis-server >/dev/null; then return; fi
  log "installing redis-server (Debian)…"
  apt_install redis-server
  command -v redis-server >/dev/null || die "redis-server did not install"
}

install_nats() {
  local bin="$TESSERA_BIN/nats-server"
  if [[ -x "$bin" ]] && "$bin" --version | grep -q "${NATS_SERVER_VERSION#v}"; then return; fi
  command -v go >/dev/null || die "Go is needed to build nats-server (go install)"
  log "building nats-server $NATS_SERVER_VERSION (go install, about a minute)…"
  local started=$SECONDS
  GOBIN="$TESSERA_BIN" go install "github.com/nats-io/nats-server/v2@$NATS_SERVER_VERSION"
  log "nats-server built in $((SECONDS - started)) s"
}

targets=("$@")
((${#targets[@]})) || targets=(redis nats)
for target in "${targets[@]}"; do
  case "$target" in
    redis) install_redis ;;
    nats) install_nats ;;
    *) die "unknown tool '$target' (known: redis nats)" ;;
  esac
done
