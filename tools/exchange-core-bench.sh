#!/usr/bin/env bash
# The exchange-core side of the engine benchmark (apps/exchange/bench/exchange-core), built by
# tools/java-driver.sh into ~/.cache/tessera/exchange-core-bench. Prints the directory:
# `java -cp "$DIR/classes:$DIR/lib/*" ExchangeCoreBench …`.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
exec bash "$here/tools/java-driver.sh" exchange-core-bench "$here/apps/exchange/bench/exchange-core" ExchangeCoreBench.java
