#!/usr/bin/env bash
# Makes sure vegeta (the open-loop HTTP load generator: requests at a fixed rate, whatever the
# answers' latency) is installed, built from its Go module. Prints its path.
set -euo pipefail
VERSION=v12.13.0
BIN="$(go env GOPATH 2>/dev/null || echo "$HOME/go")/bin/vegeta"
if command -v vegeta >/dev/null 2>&1; then command -v vegeta; exit 0; fi
if [[ -x $BIN ]]; then echo "$BIN"; exit 0; fi
command -v go >/dev/null || { echo "vegeta needs Go to be built (go install)" >&2; exit 1; }
echo "building vegeta $VERSION (go install)…" >&2
go install "github.com/tsenart/vegeta/v12@$VERSION" >&2
echo "$BIN"
