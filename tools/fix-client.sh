#!/usr/bin/env bash
# The QuickFIX/J test client (apps/exchange/test-support/fix-client), built by tools/java-driver.sh
# into ~/.cache/tessera/fix-client. Prints the directory: `java -cp "$DIR/classes:$DIR/lib/*" FixClient …`.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
exec bash "$here/tools/java-driver.sh" fix-client "$here/apps/exchange/test-support/fix-client" FixClient.java
