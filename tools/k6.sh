#!/usr/bin/env bash
# `make k6`: k8s-tests/load/leaderboard.js against INGRESS_URL (default: the local cluster's
# ingress, http://127.0.0.1:18480), with tokens signed by AUTH_JWT_SECRET, or, when it is not set,
# by the deployed chart's signing key (read from the Leaderboard's Secret in NAMESPACE, tessera).
# k6's own settings pass through: DURATION, WRITE_RATE, TOP_RATE, RANK_RATE, PLAYERS, P99_MS.
# Extra arguments go to `k6 run` (e.g. --summary-export file.json).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NAMESPACE=${NAMESPACE:-tessera}
KUBECONFIG_FILE=${KUBECONFIG_FILE:-$TESSERA_RUN/cluster/admin.kubeconfig}
BASE_URL=${INGRESS_URL:-http://127.0.0.1:${CLUSTER_INGRESS_PORT:-18480}}
[[ -x $TESSERA_BIN/k6 ]] || bash "$ROOT/tools/install.sh" k6 >&2

secret=${AUTH_JWT_SECRET:-}
if [[ -z $secret ]]; then
  k() { "$TESSERA_BIN/kubectl" --kubeconfig "$KUBECONFIG_FILE" -n "$NAMESPACE" "$@"; }
  ref=$(k get leaderboard leaderboard -o jsonpath='{.spec.auth.jwtSecret.secretKeyRef.name} {.spec.auth.jwtSecret.secretKeyRef.key}') ||
    die "k6.sh: no AUTH_JWT_SECRET and no deployed leaderboard to read the key from (make deploy first)"
  read -r name key <<<"$ref"
  secret=$(k get secret "$name" -o "jsonpath={.data.$key}" | base64 -d)
fi
token() { AUTH_JWT_SECRET=$secret node "$ROOT/apps/tessera/bin/tessera.js" token --sub "$1" --scope "$2" --ttl 3600; }
export BASE_URL K6_NO_USAGE_REPORT=true
TOKEN_WRITE=$(token game-server-k6 scores:write)
TOKEN_READ=$(token client-k6 scores:read)
export TOKEN_WRITE TOKEN_READ
echo "k6 against $BASE_URL" >&2
exec "$TESSERA_BIN/k6" run "$@" "$ROOT/k8s-tests/load/leaderboard.js"
