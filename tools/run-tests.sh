#!/usr/bin/env bash
# Runs each workspace's tap suite, prints its output, and closes with one line
# "N passed, N failed" summed over all of them. Exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."

# The shared servers start once for every suite: a test file that started one itself would stop it
# under another file still using it (tap runs files side by side). backend() in @tessera/testkit
# takes a server from these variables and never stops it; each test keeps to its own namespace.
SHARED_SERVERS=(redis nats cassandra elasticsearch minio kubernetes)
started=()
stop_shared() {
  ((${#started[@]} == 0)) || bash tools/backends.sh down "${started[@]}" >/dev/null 2>&1 || true
}
trap stop_shared EXIT
echo "==> starting the shared servers: ${SHARED_SERVERS[*]}"
if ! up=$(bash tools/backends.sh up "${SHARED_SERVERS[@]}"); then
  echo "!! the shared servers could not start (tools/backends.sh up ${SHARED_SERVERS[*]})"
  exit 1
fi
while IFS= read -r line; do
  case $line in
    STARTED=*) started+=("${line#STARTED=}") ;;
    [A-Z]*=*) export "${line?}" ;;
  esac
done <<<"$up"
# kubernetes reports its processes (etcd, kube-apiserver): `down kubernetes` stops both.
for i in "${!started[@]}"; do
  case ${started[$i]} in etcd | kube-apiserver) started[$i]=kubernetes ;; esac
done
mapfile -t started < <(printf '%s\n' "${started[@]}" | sort -u)

passed=0
failed=0
status=0
# The failing tests' lines, repeated after the summary: a CI log is often read from its end.
failures=()
# operators/* (the operator, against a real kube-apiserver) and k8s-tests (chart checks, k6) too.
for dir in packages/* apps/* operators/* k8s-tests; do
  [[ -d "$dir/test" ]] || continue
  echo "==> $dir"
  log=$(mktemp)
  (cd "$dir" && tap --reporter=tap) 2>&1 | tee "$log"
  code=${PIPESTATUS[0]}
  # -a: a test's output may hold any byte (a NUL would make grep call the log binary).
  summary=$(grep -a -E '^# \{ total: [0-9]+' "$log" | tail -1 || true)
  total=$(sed -nE 's/.*total: ([0-9]+).*/\1/p' <<<"$summary")
  pass=$(sed -nE 's/.*pass: ([0-9]+).*/\1/p' <<<"$summary")
  fail=$(sed -nE 's/.*fail: ([0-9]+).*/\1/p' <<<"$summary")
  while IFS= read -r line; do
    failures+=("$dir: ${line#"${line%%[![:space:]]*}"}")
  done < <(grep -a -E '^[[:space:]]*not ok ' "$log" | grep -a -v '# TODO\|# SKIP' || true)
  rm -f "$log"
  passed=$((passed + ${pass:-0}))
  failed=$((failed + ${fail:-0}))
  if [[ $code -ne 0 || -z "$summary" ]]; then
    status=1
    [[ -z "${fail:-}" || "${fail:-0}" -eq 0 ]] && failed=$((failed + 1))
    echo "!! $dir failed (exit $code)"
  fi
done
echo
if ((${#failures[@]} > 0)); then
  echo "failing (a subtest comes before the test holding it; the first 15 lines):"
  printf '  %s\n' "${failures[@]:0:15}"
fi
echo "tests: ${passed} passed, ${failed} failed"
exit $status
