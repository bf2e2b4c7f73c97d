#!/usr/bin/env bash
# Builds a small Java driver of ours (a pom.xml naming its Maven Central dependencies, and one
# source file) into ~/.cache/tessera/<name>: the dependencies copied by Maven, the source compiled
# with the machine's Java 17, rebuilt only when the pom or the source changed. Prints the
# directory; run the driver as `java -cp "$DIR/classes:$DIR/lib/*" <Main> …`.
# Usage: tools/java-driver.sh NAME SOURCE_DIR MAIN_FILE (MAIN_FILE under SOURCE_DIR/src)
set -euo pipefail
(($# == 3)) || { echo "usage: tools/java-driver.sh NAME SOURCE_DIR MAIN_FILE" >&2; exit 2; }
name=$1 src=$2 main=$2/src/$3
out=${TESSERA_CACHE:-$HOME/.cache/tessera}/$name
stamp=$out/classes/.built-from
want=$(cat "$src/pom.xml" "$main" | sha256sum | cut -d' ' -f1)
if [[ -f $stamp && $(cat "$stamp") == "$want" ]]; then echo "$out"; exit 0; fi
command -v mvn >/dev/null || { echo "$name: mvn is missing (apt-get install maven)" >&2; exit 1; }
command -v javac >/dev/null || { echo "$name: javac is missing (apt-get install openjdk-17-jdk-headless)" >&2; exit 1; }
mkdir -p "$out/lib" "$out/classes"
echo "$name: fetching its dependencies with Maven…" >&2
mvn -q -B -f "$src/pom.xml" dependency:copy-dependencies -DoutputDirectory="$out/lib" >&2
echo "$name: compiling…" >&2
javac -d "$out/classes" -cp "$out/lib/*" "$main" >&2
echo "$want" >"$stamp"
echo "$out"
