#!/usr/bin/env bash
# Runs each workspace's tap suite, prints its output, and closes with one line
# "N passed, N failed" summed over all of them. Exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0
failed=0
status=0
# operators/* (the operator, against a real kube-apiserver) and k8s-tests (chart checks, k6) too.
for dir in packages/* apps/* operators/* k8s-tests; do
  [[ -d "$dir/test" ]] || continue
  echo "==> $dir"
  log=$(mktemp)
  (cd "$dir" && tap --reporter=tap) 2>&1 | tee "$log"
  code=${PIPESTATUS[0]}
  summary=$(grep -E '^# \{ total: [0-9]+' "$log" | tail -1 || true)
  total=$(sed -nE 's/.*total: ([0-9]+).*/\1/p' <<<"$summary")
  pass=$(sed -nE 's/.*pass: ([0-9]+).*/\1/p' <<<"$summary")
  fail=$(sed -nE 's/.*fail: ([0-9]+).*/\1/p' <<<"$summary")
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
echo "tests: ${passed} passed, ${failed} failed"
exit $status
