#!/usr/bin/env bash
# `make deploy` / `make undeploy`: Tessera on the local cluster of tools/cluster.sh.
#   tools/deploy.sh up     the cluster (started when it is not up), the backing services (below),
#                          the images (tools/images.sh --import), `helm upgrade --install` of
#                          charts/tessera with values-local.yaml (AUTH_JWT_SECRET, when set, becomes
#                          the chart's signing key), waits until every pod of the release is ready;
#                          prints INGRESS_URL=… and KUBECONFIG=…
#   tools/deploy.sh down   `helm uninstall`, the namespace, the backing services (the cluster
#                          stays: `make cluster-down`)
#   tools/deploy.sh backing-up     the cluster and the backing services only (skaffold's
#                                  before-deploy hook: skaffold then builds and installs the chart)
#   tools/deploy.sh backing-down   the backing services only (a test that installed on its own)
# `up` also prints BACKING_STARTED=1 when it started the backing services (they were not running).
# Backing services, on the host, on the cluster bridge's address (pods reach it; nothing else
# does): nats-server (JetStream) on 10.244.0.1:24222 and redis-server on 10.244.0.1:26379, data
# under $TESSERA_RUN/deploy; Cassandra (a JVM with a heap of its own: one per machine) forwarded by
# socat from 10.244.0.1:29042 to CASSANDRA_URL (default: the one `tools/backends.sh up cassandra`
# runs on 127.0.0.1:19042, started when it is not up). Why: docs/install.md.
# Variables: RELEASE (tessera), NAMESPACE (tessera), DEPLOY_SKIP_IMAGES=1 (images already
# imported), DEPLOY_SET (extra `--set a=b,c=d` for helm), AUTH_JWT_SECRET, CASSANDRA_URL.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

RELEASE=${RELEASE:-tessera}
NAMESPACE=${NAMESPACE:-tessera}
BRIDGE_IP=${CLUSTER_POD_CIDR:-10.244.0.0/24}
BRIDGE_IP="${BRIDGE_IP%.*}.1"
NATS_PORT=24222 REDIS_PORT=26379 CASSANDRA_PORT=29042
RUN="$TESSERA_RUN/deploy"
KUBECONFIG_FILE="$TESSERA_RUN/cluster/admin.kubeconfig"
HELM="$TESSERA_BIN/helm"
KUBECTL="$TESSERA_BIN/kubectl"
mkdir -p "$RUN"

kubectl() { "$KUBECTL" --kubeconfig "$KUBECONFIG_FILE" "$@"; }
helm() { "$HELM" --kubeconfig "$KUBECONFIG_FILE" "$@"; }
running() { [[ -f $RUN/$1.pid ]] && kill -0 "$(cat "$RUN/$1.pid")" 2>/dev/null; }
port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

# start NAME HOST PORT COMMAND…: in its own process group, logging to NAME.log, until HOST:PORT answers.
started_any=0
start() {
  local name=$1 host=$2 port=$3
  shift 3
  if running "$name"; then return; fi
  started_any=1
  setsid "$@" >"$RUN/$name.log" 2>&1 </dev/null &
  echo $! >"$RUN/$name.pid"
  for _ in $(seq 1 60); do
    port_open "$host" "$port" && return
    running "$name" || { tail -n 20 "$RUN/$name.log" >&2; die "$name exited at start"; }
    sleep 0.5
  done
  die "$name did not listen on $host:$port within 30 s (log: $RUN/$name.log)"
}

stop() {
  running "$1" || { rm -f "$RUN/$1.pid"; return 0; }
  local pid
  pid=$(cat "$RUN/$1.pid")
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  kill -KILL -- "-$pid" 2>/dev/null || true
  rm -f "$RUN/$1.pid"
}

backing_up() {
  mkdir -p "$RUN/nats" "$RUN/redis"
  start nats "$BRIDGE_IP" "$NATS_PORT" "$TESSERA_BIN/nats-server" --addr "$BRIDGE_IP" --port "$NATS_PORT" \
    --jetstream --store_dir "$RUN/nats"
  start redis "$BRIDGE_IP" "$REDIS_PORT" redis-server --bind "$BRIDGE_IP" --port "$REDIS_PORT" \
    --dir "$RUN/redis" --save '' --appendonly yes --protected-mode no
  local upstream=${CASSANDRA_URL:-}
  if [[ -z $upstream ]]; then
    local printed
    printed=$(bash "$ROOT/tools/backends.sh" up cassandra)
    # Started here (not found running): backing-down stops it again, as it does the cluster.
    grep -q '^STARTED=cassandra$' <<<"$printed" && touch "$RUN/started-cassandra" || true
    upstream=$(sed -n 's/^CASSANDRA_URL=//p' <<<"$printed" | tail -n 1)
    [[ -n $upstream ]] || die "tools/backends.sh up cassandra printed no CASSANDRA_URL"
  fi
  local target=${upstream#cassandra://}
  target=${target%%/*}
  target=${target%%,*}
  start cassandra-forward "$BRIDGE_IP" "$CASSANDRA_PORT" socat \
    "TCP-LISTEN:$CASSANDRA_PORT,bind=$BRIDGE_IP,reuseaddr,fork" "TCP:$target"
}

up() {
  local printed
  printed=$(bash "$ROOT/tools/cluster.sh" up)
  grep -q '^STARTED=cluster' <<<"$printed" && touch "$RUN/started-cluster" || true
  local ingress
  ingress=$(sed -n 's/^INGRESS_URL=//p' <<<"$printed")
  backing_up
  if [[ ${DEPLOY_SKIP_IMAGES:-} != 1 ]]; then bash "$ROOT/tools/images.sh" --import >&2; fi
  local args=(upgrade --install "$RELEASE" "$ROOT/charts/tessera" --namespace "$NAMESPACE" --create-namespace
    --values "$ROOT/charts/tessera/values-local.yaml" --set "image.tag=$(jq -r .version "$ROOT/apps/tessera/package.json")"
    --set "operator.image.tag=$(jq -r .version "$ROOT/apps/tessera/package.json")"
    --set "operator.watchNamespace=$NAMESPACE")
  [[ -z ${AUTH_JWT_SECRET:-} ]] || args+=(--set-string "auth.jwtSecret=$AUTH_JWT_SECRET")
  [[ -z ${DEPLOY_SET:-} ]] || args+=(--set "$DEPLOY_SET")
  helm "${args[@]}" >"$RUN/helm.log" 2>&1 || { cat "$RUN/helm.log" >&2; die "helm upgrade --install failed"; }
  # The operator makes the api pods after the release's own: wait for both to exist, then for all.
  local deadline=$((SECONDS + 600))
  until kubectl -n "$NAMESPACE" get deployment leaderboard-api >/dev/null 2>&1; do
    ((SECONDS < deadline)) || die "the operator made no leaderboard-api Deployment within 600 s"
    sleep 1
  done
  kubectl -n "$NAMESPACE" rollout status deployment --timeout=600s >&2
  kubectl -n "$NAMESPACE" wait --for=condition=Ready pod --all --timeout=300s \
    --field-selector=status.phase=Running >&2
  echo "KUBECONFIG=$KUBECONFIG_FILE"
  echo "INGRESS_URL=$ingress"
  echo "BACKING_STARTED=$started_any"
}

backing_down() {
  stop cassandra-forward
  stop redis
  stop nats
  rm -rf "$RUN/nats" "$RUN/redis"
  if [[ -e $RUN/started-cassandra ]]; then
    bash "$ROOT/tools/backends.sh" down cassandra >&2
    rm -f "$RUN/started-cassandra"
  fi
}

down() {
  if helm status "$RELEASE" --namespace "$NAMESPACE" >/dev/null 2>&1; then
    helm uninstall "$RELEASE" --namespace "$NAMESPACE" --wait --timeout 300s >&2
  fi
  kubectl delete namespace "$NAMESPACE" --ignore-not-found --wait=true --timeout=300s >&2 2>/dev/null || true
  backing_down
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  backing-up)
    bash "$ROOT/tools/cluster.sh" up >/dev/null
    backing_up
    echo "KUBECONFIG=$KUBECONFIG_FILE"
    ;;
  backing-down) backing_down ;;
  *) die "usage: tools/deploy.sh up|down|backing-up|backing-down" ;;
esac
