#!/usr/bin/env bash
# Builds the QuickFIX/J test client (apps/exchange/test-support/fix-client) into
# ~/.cache/tessera/fix-client: the pom's dependencies from Maven Central, then FixClient.java
# compiled against them with the machine's Java 17. Prints the classpath directory when done.
# Run it as `java -cp "$DIR/classes:$DIR/lib/*" FixClient …`.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
src=$here/apps/exchange/test-support/fix-client
out=${TESSERA_CACHE:-$HOME/.cache/tessera}/fix-client
stamp=$out/classes/.built-from
want=$(cat "$src/pom.xml" "$src/src/FixClient.java" | sha256sum | cut -d' ' -f1)
if [[ -f $stamp && $(cat "$stamp") == "$want" ]]; then echo "$out"; exit 0; fi
command -v mvn >/dev/null || { echo "fix-client: mvn is missing (apt-get install maven)" >&2; exit 1; }
command -v javac >/dev/null || { echo "fix-client: javac is missing (apt-get install openjdk-17-jdk-headless)" >&2; exit 1; }
mkdir -p "$out/lib" "$out/classes"
echo "fix-client: fetching QuickFIX/J with Maven…" >&2
mvn -q -B -f "$src/pom.xml" dependency:copy-dependencies -DoutputDirectory="$out/lib" >&2
echo "fix-client: compiling…" >&2
javac -d "$out/classes" -cp "$out/lib/*" "$src/src/FixClient.java" >&2
echo "$want" >"$stamp"
echo "$out"
