#!/usr/bin/env bash
# Turns a root filesystem directory into a one-layer OCI image (an OCI layout tarball, written with
# tar, gzip, sha256sum and jq: no registry, no daemon) and, with --import, imports it into the
# containerd of the cluster that tools/cluster.sh runs. Usage:
#   tools/image.sh --rootfs DIR --name NAME:TAG [--output FILE.tar] [--import]
#     [--entrypoint '["/bin/app","--flag"]'] [--cmd '["arg"]'] [--env KEY=VALUE]… [--user UID[:GID]]
#     [--workdir DIR] [--label KEY=VALUE]… [--port PORT/tcp]…
# NAME must be a full reference (tessera.local/exchange:1, not exchange:1), as kubelet asks
# containerd for the normalised name; the Pod's imagePullPolicy is Never or IfNotPresent.
# The files are stored as owned by root unless the rootfs says otherwise (tar --numeric-owner),
# with their modes, and with a fixed time, so the same rootfs gives the same image digest.
# --import talks to $CONTAINERD_ADDRESS (default: the cluster's socket under $TESSERA_RUN).
# Prints IMAGE=NAME and DIGEST=sha256:… (the manifest's).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

rootfs="" name="" output="" import=0 entrypoint="null" cmd="null" user="" workdir=""
envs=() labels=() ports=()
while (($#)); do
  case "$1" in
    --rootfs) rootfs=$2 ;;
    --name) name=$2 ;;
    --output) output=$2 ;;
    --entrypoint) entrypoint=$2 ;;
    --cmd) cmd=$2 ;;
    --env) envs+=("$2") ;;
    --user) user=$2 ;;
    --workdir) workdir=$2 ;;
    --label) labels+=("$2") ;;
    --port) ports+=("$2") ;;
    --import)
      import=1
      shift
      continue
      ;;
    *) die "image.sh: unknown argument '$1' (see the usage at the top of tools/image.sh)" ;;
  esac
  (($# >= 2)) || die "image.sh: $1 needs a value"
  shift 2
done
[[ -d $rootfs ]] || die "image.sh: --rootfs must be a directory (got '$rootfs')"
[[ $name =~ ^[a-z0-9.-]+\.[a-z0-9.-]+(:[0-9]+)?/[a-z0-9._/-]+:[A-Za-z0-9._-]+$ ]] ||
  die "image.sh: --name must be a full reference with a tag, like tessera.local/app:1 (got '$name')"
for json in "$entrypoint" "$cmd"; do
  jq -e 'type == "null" or (type == "array" and all(type == "string"))' <<<"$json" >/dev/null 2>&1 ||
    die "image.sh: --entrypoint and --cmd take a JSON array of strings (got '$json')"
done
for pair in "${envs[@]}" "${labels[@]}"; do [[ $pair == ?*=* ]] || die "image.sh: '$pair' is not KEY=VALUE"; done
command -v jq >/dev/null || die "image.sh needs jq (tools/install.sh cluster installs it)"

work=$(mktemp -d "${TMPDIR:-/tmp}/tessera-image.XXXXXX")
trap 'rm -rf "$work"' EXIT
blobs="$work/layout/blobs/sha256"
mkdir -p "$blobs"

# blob FILE: moves FILE into the layout under its digest and prints "DIGEST SIZE".
blob() {
  local digest size
  digest=$(sha256sum "$1" | cut -d' ' -f1)
  size=$(stat -c %s "$1")
  mv "$1" "$blobs/$digest"
  echo "$digest $size"
}

# The layer: sorted, numeric owners, one fixed time, no compression timestamp (gzip -n).
tar --create --file="$work/layer.tar" --directory="$rootfs" --sort=name --numeric-owner \
  --mtime='2000-01-01 00:00:00Z' --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime .
diff_id=$(sha256sum "$work/layer.tar" | cut -d' ' -f1)
gzip -n -6 "$work/layer.tar"
read -r layer layer_size < <(blob "$work/layer.tar.gz")

# KEY=VALUE lines → a JSON object (labels) or array (env).
pairs_object() { jq -R 'capture("^(?<key>[^=]+)=(?<value>.*)$") | {(.key): .value}' | jq -s 'add // {}'; }
lines() { if (($#)); then printf '%s\n' "$@"; fi; }
env_json=$(lines "${envs[@]}" | jq -R . | jq -s .)
labels_json=$(lines "${labels[@]}" | pairs_object)
ports_json=$(lines "${ports[@]}" | jq -R '{(.): {}}' | jq -s 'add // {}')

jq -n --argjson entrypoint "$entrypoint" --argjson cmd "$cmd" --argjson env "$env_json" \
  --argjson labels "$labels_json" --argjson ports "$ports_json" --arg user "$user" --arg workdir "$workdir" \
  --arg diff "sha256:$diff_id" '{
    created: "2000-01-01T00:00:00Z", architecture: "amd64", os: "linux",
    config: ({Env: $env, Labels: $labels, ExposedPorts: $ports}
      + (if $entrypoint then {Entrypoint: $entrypoint} else {} end)
      + (if $cmd then {Cmd: $cmd} else {} end)
      + (if $user != "" then {User: $user} else {} end)
      + (if $workdir != "" then {WorkingDir: $workdir} else {} end)),
    rootfs: {type: "layers", diff_ids: [$diff]}
  }' >"$work/config.json"
read -r config config_size < <(blob "$work/config.json")

jq -n --arg config "sha256:$config" --argjson config_size "$config_size" \
  --arg layer "sha256:$layer" --argjson layer_size "$layer_size" '{
    schemaVersion: 2, mediaType: "application/vnd.oci.image.manifest.v1+json",
    config: {mediaType: "application/vnd.oci.image.config.v1+json", digest: $config, size: $config_size},
    layers: [{mediaType: "application/vnd.oci.image.layer.v1.tar+gzip", digest: $layer, size: $layer_size}]
  }' >"$work/manifest.json"
read -r manifest manifest_size < <(blob "$work/manifest.json")

# The index names the image: containerd's import takes io.containerd.image.name.
jq -n --arg manifest "sha256:$manifest" --argjson size "$manifest_size" --arg name "$name" '{
    schemaVersion: 2, mediaType: "application/vnd.oci.image.index.v1+json",
    manifests: [{
      mediaType: "application/vnd.oci.image.manifest.v1+json", digest: $manifest, size: $size,
      platform: {architecture: "amd64", os: "linux"},
      annotations: {"io.containerd.image.name": $name, "org.opencontainers.image.ref.name": ($name | sub(".*:"; ""))}
    }]
  }' >"$work/layout/index.json"
echo '{"imageLayoutVersion":"1.0.0"}' >"$work/layout/oci-layout"

tarball=${output:-$work/image.tar}
tar --create --file="$tarball" --directory="$work/layout" --sort=name --numeric-owner \
  --mtime='2000-01-01 00:00:00Z' oci-layout index.json blobs

if ((import)); then
  address=${CONTAINERD_ADDRESS:-$TESSERA_RUN/cluster/containerd/containerd.sock}
  [[ -S $address ]] || die "image.sh: no containerd at $address (start the cluster: tools/cluster.sh up)"
  ctr --address "$address" --namespace k8s.io images import "$tarball" >"$work/import.log" 2>&1 ||
    { cat "$work/import.log" >&2; die "image.sh: containerd did not import $name"; }
fi
echo "IMAGE=$name"
echo "DIGEST=sha256:$manifest"
