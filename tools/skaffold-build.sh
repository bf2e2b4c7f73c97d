#!/usr/bin/env bash
# skaffold's custom builder (skaffold.yaml): builds the image skaffold asks for ($IMAGE, with its
# tag) the way `make images` does (tools/images.sh: no Dockerfile, no daemon), imports it into the
# local cluster's containerd when that cluster runs, and loads it into a Docker daemon when there
# is one: skaffold, when it does not push, reads the built image's id from Docker, and a kind or
# minikube cluster gets its images from there.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[[ -n ${IMAGE:-} ]] || die "skaffold-build.sh: IMAGE is not set (skaffold sets it; see skaffold.yaml)"

tag=${IMAGE##*:}
case "${IMAGE%:*}" in
  */tessera) tarball=tessera.tar ;;
  */tessera-operator) tarball=tessera-operator.tar ;;
  *) die "skaffold-build.sh: unknown image '$IMAGE' (tessera.local/tessera or tessera.local/tessera-operator)" ;;
esac
out=$(mktemp -d "${TMPDIR:-/tmp}/tessera-skaffold.XXXXXX")
trap 'rm -rf "$out"' EXIT
(cd "$ROOT" && npx tsc -b)
bash "$ROOT/tools/images.sh" --import-if-up --tag "$tag" --output-dir "$out" >&2
if command -v docker >/dev/null && docker info >/dev/null 2>&1; then
  docker load --input "$out/$tarball" >&2
fi
