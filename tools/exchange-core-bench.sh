#!/usr/bin/env bash
# Builds the exchange-core side of the engine benchmark (apps/exchange/bench/exchange-core) into
# ~/.cache/tessera/exchange-core-bench: exchange-core and its dependencies from Maven Central,
# then ExchangeCoreBench.java compiled against them with the machine's Java 17. Prints the
# directory when done; run it as `java -cp "$DIR/classes:$DIR/lib/*" ExchangeCoreBench …`.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
src=$here/apps/exchange/bench/exchange-core
out=${TESSERA_CACHE:-$HOME/.cache/tessera}/exchange-core-bench
stamp=$out/classes/.built-from
want=$(cat "$src/pom.xml" "$src/src/ExchangeCoreBench.java" | sha256sum | cut -d' ' -f1)
if [[ -f $stamp && $(cat "$stamp") == "$want" ]]; then echo "$out"; exit 0; fi
command -v mvn >/dev/null || { echo "exchange-core-bench: mvn is missing (apt-get install maven)" >&2; exit 1; }
command -v javac >/dev/null || { echo "exchange-core-bench: javac is missing (apt-get install openjdk-17-jdk-headless)" >&2; exit 1; }
mkdir -p "$out/lib" "$out/classes"
echo "exchange-core-bench: fetching exchange-core with Maven…" >&2
mvn -q -B -f "$src/pom.xml" dependency:copy-dependencies -DoutputDirectory="$out/lib" >&2
echo "exchange-core-bench: compiling…" >&2
javac -d "$out/classes" -cp "$out/lib/*" "$src/src/ExchangeCoreBench.java" >&2
echo "$want" >"$stamp"
echo "$out"
