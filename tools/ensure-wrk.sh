#!/usr/bin/env bash
# Makes sure wrk (the HTTP load generator of the benchmarks) is installed, from Debian's packages.
set -euo pipefail
if command -v wrk >/dev/null 2>&1; then exit 0; fi
echo "installing wrk (Debian package)…" >&2
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
$SUDO apt-get install -y wrk >/dev/null 2>&1 || { $SUDO apt-get update >/dev/null && $SUDO apt-get install -y wrk >/dev/null; }
command -v wrk >/dev/null || { echo "wrk could not be installed" >&2; exit 1; }
