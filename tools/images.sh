#!/usr/bin/env bash
# `make images`: the platform's images, built without a registry or a daemon:
#   tessera.local/tessera:<version>           every role: `tessera run <service> <role>`,
#                                             `tessera archive leaderboard …` (ENTRYPOINT tessera)
#   tessera.local/tessera-operator:<version>  the same root filesystem, ENTRYPOINT tessera-operator
# The root filesystem: the project's pinned Node (node_modules/node's binary) with the shared
# libraries `ldd` says it loads, copied from this machine (Debian's libc, libstdc++, libgcc_s);
# the built dist/ and bin/ of the workspaces the two programs need, with their production
# node_modules (`npm ci --omit=dev`, from the lock file); /etc/passwd and /etc/group naming the
# non-root user 10001 the pods run as; /tmp and /data as empty mount points (the pods mount
# emptyDirs there: the root stays read-only). No shell, no package manager, no HEALTHCHECK
# (Kubernetes probes /healthz and /readyz).
# Usage: tools/images.sh [--import] [--output-dir DIR] [--tag TAG]
#   --import      also import both into the cluster's containerd (tools/cluster.sh up first)
#   --tag         tag both images TAG instead of the version (skaffold's custom builder passes
#                 its own tag: see skaffold.yaml)
#   --import-if-up  import them when the cluster's containerd is running (what `make images` does)
#   --output-dir  keep the OCI tarballs there (default: a temp dir, removed)
# Prints IMAGE=…, OPERATOR_IMAGE=…, and the sizes (rootfs, compressed layer).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

import=() output_dir="" tag=""
while (($#)); do
  case "$1" in
    --import) import=(--import) ;;
    --import-if-up)
      [[ ! -S ${CONTAINERD_ADDRESS:-$TESSERA_RUN/cluster/containerd/containerd.sock} ]] || import=(--import)
      ;;
    --output-dir)
      output_dir=$2
      shift
      ;;
    --tag)
      tag=$2
      shift
      ;;
    *) die "images.sh: unknown argument '$1' (see the usage at the top of tools/images.sh)" ;;
  esac
  shift
done

VERSION=$(jq -r .version "$ROOT/apps/tessera/package.json")
SOURCE=$(git -C "$ROOT" remote get-url origin 2>/dev/null || echo "file://$ROOT")
REVISION=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)
IMAGE="tessera.local/tessera:${tag:-$VERSION}"
OPERATOR_IMAGE="tessera.local/tessera-operator:${tag:-$VERSION}"
NODE_BIN=$(readlink -f "$ROOT/node_modules/node/bin/node")
[[ -x $NODE_BIN ]] || die "images.sh: no pinned Node in node_modules/node (run npm ci first)"
# The workspaces the two programs load (apps/tessera's dependencies, the operator's).
WORKSPACES=(packages/kit apps/leaderboard apps/exchange apps/mail apps/tessera operators/tessera-operator)
for ws in "${WORKSPACES[@]}"; do
  [[ -d $ROOT/$ws/dist ]] || die "images.sh: $ws is not built (run tsc -b first)"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/tessera-images.XXXXXX")
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"
app="$rootfs/app"
mkdir -p "$app" "$rootfs/usr/local/bin" "$rootfs/etc" "$rootfs/tmp" "$rootfs/data"
chmod 1777 "$rootfs/tmp"

# Node and what it links against (the same paths as here: the loader finds them as it would).
cp "$NODE_BIN" "$rootfs/usr/local/bin/node"
while read -r lib; do
  mkdir -p "$rootfs$(dirname "$lib")"
  cp -L "$lib" "$rootfs$lib"
done < <(ldd "$NODE_BIN" | grep -o '/[^ ]*' | sort -u)

# The workspaces' manifests (npm ci checks them against the lock), their built code, and then
# the production dependencies of the two programs only.
cp "$ROOT/package.json" "$ROOT/package-lock.json" "$app/"
for manifest in "$ROOT"/{packages,apps,operators}/*/package.json "$ROOT/k8s-tests/package.json"; do
  ws=${manifest#"$ROOT/"}
  mkdir -p "$app/$(dirname "$ws")"
  cp "$manifest" "$app/$ws"
done
for ws in "${WORKSPACES[@]}"; do
  # dist/ without the test-only declaration maps; bin/ and the pages' web/ where there are.
  cp -r "$ROOT/$ws/dist" "$app/$ws/dist"
  [[ ! -d $ROOT/$ws/bin ]] || cp -r "$ROOT/$ws/bin" "$app/$ws/bin"
  [[ ! -d $ROOT/$ws/web ]] || cp -r "$ROOT/$ws/web" "$app/$ws/web"
done
find "$app" \( -name '*.d.ts' -o -name '*.d.ts.map' -o -name '*.js.map' -o -name '*.tsbuildinfo' \) -delete
log "installing the production dependencies (npm ci --omit=dev)"
(cd "$app" && npm ci --omit=dev --ignore-scripts --prefer-offline --no-audit --no-fund --loglevel=error \
  -w apps/tessera -w operators/tessera-operator) >"$work/npm.log" 2>&1 ||
  { cat "$work/npm.log" >&2; die "images.sh: npm ci --omit=dev failed"; }
rm -f "$app/package-lock.json"
# What nothing loads at run time: source maps, declarations, documents (a third of node_modules).
find "$app/node_modules" -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \
  -o -name '*.md' -o -name '*.markdown' \) -delete

# The user the pods run as (runAsUser 10001); names make `id` and logs readable.
printf 'root:x:0:0:root:/root:/sbin/nologin\ntessera:x:10001:10001:tessera:/data:/sbin/nologin\n' \
  >"$rootfs/etc/passwd"
printf 'root:x:0:\ntessera:x:10001:\n' >"$rootfs/etc/group"
# Name resolution for the Services: glibc reads these (no nsswitch.conf: files then dns).
printf 'hosts: files dns\n' >"$rootfs/etc/nsswitch.conf"
chown 10001:10001 "$rootfs/data"

size_rootfs=$(du -sh "$rootfs" | cut -f1)
labels=(
  --label "org.opencontainers.image.version=$VERSION"
  --label "org.opencontainers.image.source=$SOURCE"
  --label "org.opencontainers.image.revision=$REVISION"
  --label "org.opencontainers.image.licenses=Apache-2.0"
)
common=(--rootfs "$rootfs" --user 10001:10001 --workdir /app --env PATH=/usr/local/bin
  --env NODE_ENV=production --env DATA_DIR=/data "${labels[@]}" "${import[@]}")
out=${output_dir:-$work}
mkdir -p "$out"
log "building $IMAGE"
bash "$ROOT/tools/image.sh" "${common[@]}" --name "$IMAGE" --output "$out/tessera.tar" \
  --label "org.opencontainers.image.title=tessera" \
  --entrypoint '["/usr/local/bin/node","/app/apps/tessera/bin/tessera.js"]' --cmd '["serve"]' \
  --port 8080/tcp >/dev/null
log "building $OPERATOR_IMAGE"
bash "$ROOT/tools/image.sh" "${common[@]}" --name "$OPERATOR_IMAGE" --output "$out/tessera-operator.tar" \
  --label "org.opencontainers.image.title=tessera-operator" \
  --entrypoint '["/usr/local/bin/node","/app/operators/tessera-operator/bin/tessera-operator.js"]' \
  --port 8081/tcp >/dev/null
echo "IMAGE=$IMAGE"
echo "OPERATOR_IMAGE=$OPERATOR_IMAGE"
echo "ROOTFS_SIZE=$size_rootfs"
echo "IMAGE_TARBALL_SIZE=$(du -h "$out/tessera.tar" | cut -f1)"
if [[ -n ${import[*]} ]]; then echo "IMPORTED=1"; fi
