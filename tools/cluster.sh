#!/usr/bin/env bash
# A real single-node Kubernetes cluster on this machine, for the tests:
#   tools/cluster.sh up       install what is missing, start everything, wait until the node is Ready,
#                            cluster DNS answers and the ingress controller is up; prints
#                            KUBECONFIG=…, INGRESS_URL=…, CONTAINERD_ADDRESS=… (for tools/image.sh),
#                            CLUSTER_LOGS=… and STARTED=cluster when it started it (a cluster
#                            already up is reused, as it is)
#   tools/cluster.sh down     stop everything, unmount, delete the network interfaces and iptables
#                            chains the cluster made, restore the sysctls it changed (twice is fine)
#   tools/cluster.sh status
# Parts, each in its own process group, logs and data under $TESSERA_RUN/cluster: etcd,
# kube-apiserver, kube-scheduler, kube-controller-manager, containerd (CRI) with runc, kubelet,
# kube-proxy (iptables), CoreDNS and Traefik (the ingress controller) as host processes.
# Pods sit on the bridge tessera0 (CLUSTER_POD_CIDR, 10.244.0.0/24) with routes to the bridge and
# to the Services (CLUSTER_SERVICE_CIDR, 10.96.0.0/24) only: nothing leaves the node. The cluster
# DNS is CoreDNS on the bridge's address (10.244.0.1:53). One cluster per machine: the bridge,
# iptables and port 53 are the machine's. Ports (and variables): CLUSTER_ETCD_PORT 22379
# (CLUSTER_ETCD_PEER_PORT 22380), CLUSTER_APISERVER_PORT 26443, CLUSTER_INGRESS_PORT 18480
# (Traefik's ping: CLUSTER_INGRESS_ADMIN_PORT 18481); the others are fixed: scheduler 20259,
# controller-manager 20257, kubelet 20250 (healthz 20248), kube-proxy 20256 (metrics 20249),
# CoreDNS health 20180, ready 20181.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
TOOLS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

ETCD_PORT="${CLUSTER_ETCD_PORT:-22379}"
ETCD_PEER_PORT="${CLUSTER_ETCD_PEER_PORT:-22380}"
APISERVER_PORT="${CLUSTER_APISERVER_PORT:-26443}"
INGRESS_PORT="${CLUSTER_INGRESS_PORT:-18480}"
INGRESS_ADMIN_PORT="${CLUSTER_INGRESS_ADMIN_PORT:-18481}"
POD_CIDR="${CLUSTER_POD_CIDR:-10.244.0.0/24}"
SERVICE_CIDR="${CLUSTER_SERVICE_CIDR:-10.96.0.0/24}"
prefix=${POD_CIDR%.*}
GATEWAY="$prefix.1" # the bridge's address: the pods' gateway, the cluster DNS, the advertised API
service_prefix=${SERVICE_CIDR%.*}
API_SERVICE_IP="$service_prefix.1"
BRIDGE=tessera0
NODE=$(hostname | tr 'A-Z' 'a-z')
RUN="$TESSERA_RUN/cluster"
PKI="$RUN/pki"
CONTAINERD_SOCK="$RUN/containerd/containerd.sock"
PAUSE_IMAGE="tessera.local/pause:1"
KUBECTL="$TESSERA_BIN/kubectl"
# Started in this order, stopped in the reverse one.
DAEMONS=(etcd kube-apiserver kube-scheduler kube-controller-manager containerd kubelet kube-proxy coredns traefik)

pidfile() { echo "$RUN/$1.pid"; }
logfile() { echo "$RUN/$1.log"; }
running() { [[ -f $(pidfile "$1") ]] && kill -0 "$(cat "$(pidfile "$1")")" 2>/dev/null; }
kubectl() { "$KUBECTL" --kubeconfig "$RUN/admin.kubeconfig" "$@"; }

# fail NAME WHY: shows NAME's log tail and fails.
fail() {
  echo "--- $1 log ($(logfile "$1")) ---" >&2
  tail -n 60 "$(logfile "$1")" >&2 2>/dev/null || true
  die "$1 $2"
}

# launch NAME COMMAND…: runs COMMAND in its own session (process group), logging to NAME.log.
launch() {
  local name=$1
  shift
  setsid "$@" >"$(logfile "$name")" 2>&1 </dev/null &
  echo $! >"$(pidfile "$name")"
}

# await NAME TIMEOUT WHAT COMMAND…: waits until COMMAND succeeds; fails with NAME's log when NAME
# exits or TIMEOUT seconds pass.
await() {
  local name=$1 timeout=$2 what=$3 deadline=$((SECONDS + $2))
  shift 3
  until "$@" >/dev/null 2>&1; do
    running "$name" || fail "$name" "exited before $what"
    ((SECONDS < deadline)) || fail "$name" "did not get $what within $timeout s"
    sleep 0.5
  done
}

http_ok() { curl --silent --fail --max-time 5 --output /dev/null "$@"; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# --- certificates, tokens and kubeconfigs -------------------------------------------------------

make_pki() {
  mkdir -p "$PKI"
  (
    cd "$PKI"
    openssl req -x509 -newkey rsa:2048 -nodes -days 7 -subj /CN=tessera-cluster-ca -keyout ca.key -out ca.crt
    openssl req -newkey rsa:2048 -nodes -subj /CN=kube-apiserver -keyout apiserver.key -out apiserver.csr
    printf 'subjectAltName=%s\n' "IP:127.0.0.1,IP:$GATEWAY,IP:$API_SERVICE_IP,DNS:localhost,DNS:kubernetes,$(
    )DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local" >san.ext
    openssl x509 -req -days 7 -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial -extfile san.ext \
      -out apiserver.crt
    # The API server's identity towards kubelet (logs, exec): bound to system:kubelet-api-admin.
    openssl req -newkey rsa:2048 -nodes -subj /CN=kube-apiserver-kubelet-client -keyout kubelet-client.key \
      -out kubelet-client.csr
    openssl x509 -req -days 7 -in kubelet-client.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out kubelet-client.crt
    openssl genrsa -out service-account.key 2048
    openssl rsa -in service-account.key -pubout -out service-account.pub
  ) >"$RUN/pki.log" 2>&1 || { cat "$RUN/pki.log" >&2; die "could not make the cluster's certificates"; }
  # One static token per component, each with the user name its bootstrap RBAC role is bound to
  # (kubelet's: the Node authorizer's system:node:<name>).
  local user name who group
  for user in "admin,tessera-admin,system:masters" "kubelet,system:node:$NODE,system:nodes" \
    "scheduler,system:kube-scheduler," "controller-manager,system:kube-controller-manager," \
    "proxy,system:kube-proxy," "coredns,tessera:coredns," "traefik,tessera:traefik,"; do
    IFS=, read -r name who group <<<"$user"
    openssl rand -hex 24 >"$PKI/$name.token"
    echo "$(token "$name"),$who,$who${group:+,\"$group\"}" >>"$PKI/tokens.csv"
    kubeconfig "$name" "$(token "$name")"
  done
}

# kubeconfig NAME TOKEN: $RUN/NAME.kubeconfig, for the API server on 127.0.0.1.
kubeconfig() {
  cat >"$RUN/$1.kubeconfig" <<YAML
apiVersion: v1
kind: Config
clusters:
  - name: tessera-cluster
    cluster:
      server: https://127.0.0.1:$APISERVER_PORT
      certificate-authority: $PKI/ca.crt
users:
  - name: $1
    user:
      token: $2
contexts:
  - name: tessera-cluster
    context: { cluster: tessera-cluster, user: $1 }
current-context: tessera-cluster
YAML
}

token() { cat "$PKI/$1.token"; }

# --- the host's network -------------------------------------------------------------------------

# The bridge exists before any pod (CNI's bridge plugin takes it as it is), so that CoreDNS and
# the API server can use its address from the start. Forwarding is needed from the pods to the
# Services (kube-proxy's DNAT); the previous value is restored by `down`.
network_up() {
  [[ -f $RUN/ip_forward ]] || sysctl -n net.ipv4.ip_forward >"$RUN/ip_forward"
  sysctl -q -w net.ipv4.ip_forward=1
  sysctl -q -w net.bridge.bridge-nf-call-iptables=1
  ip link show "$BRIDGE" >/dev/null 2>&1 || ip link add "$BRIDGE" type bridge
  ip addr replace "$GATEWAY/${POD_CIDR#*/}" dev "$BRIDGE"
  ip link set "$BRIDGE" up
  mkdir -p "$RUN/cni/net.d" "$RUN/cni/ipam"
  cat >"$RUN/cni/net.d/10-tessera.conflist" <<JSON
{
  "cniVersion": "0.4.0",
  "name": "tessera",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "$BRIDGE",
      "isGateway": true,
      "ipMasq": false,
      "hairpinMode": true,
      "ipam": {
        "type": "host-local",
        "ranges": [[{ "subnet": "$POD_CIDR", "gateway": "$GATEWAY" }]],
        "routes": [{ "dst": "$SERVICE_CIDR" }],
        "dataDir": "$RUN/cni/ipam"
      }
    }
  ]
}
JSON
}

# iptables chains named KUBE-* (kubelet's and kube-proxy's, in both families) and the jumps to
# them from the built-in chains, for whatever `kube-proxy --cleanup` left.
sweep_chains() {
  local family table chains
  for family in iptables ip6tables; do
    command -v "$family-save" >/dev/null || continue
    for table in filter nat mangle; do
      chains=$("$family-save" -t "$table" 2>/dev/null | sed -n 's/^:\(KUBE-[^ ]*\) .*/\1/p') || continue
      [[ -n $chains ]] || continue
      {
        echo "*$table"
        "$family-save" -t "$table" | grep -E '^-A [A-Z]+ .*-j KUBE-' | sed 's/^-A /-D /' || true
        sed 's/^/-F /' <<<"$chains"
        sed 's/^/-X /' <<<"$chains"
        echo COMMIT
      } | "$family-restore" --noflush || log "could not remove every KUBE-* chain from $family $table"
    done
  done
}

# --- the daemons --------------------------------------------------------------------------------

start_etcd() {
  launch etcd "$TESSERA_BIN/etcd" --name tessera-cluster --data-dir "$RUN/etcd" \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-cluster "tessera-cluster=http://127.0.0.1:$ETCD_PEER_PORT" --unsafe-no-fsync \
    --listen-metrics-urls "" --log-level warn
  await etcd 60 "its client port" port_open "$ETCD_PORT"
}

# Listens on every address (it is advertised on the bridge's, so that pods reach it through the
# `kubernetes` Service); tests use 127.0.0.1.
start_apiserver() {
  launch kube-apiserver "$TESSERA_BIN/kube-apiserver" --etcd-servers="http://127.0.0.1:$ETCD_PORT" \
    --bind-address=0.0.0.0 --advertise-address="$GATEWAY" --secure-port="$APISERVER_PORT" --cert-dir="$PKI" \
    --tls-cert-file="$PKI/apiserver.crt" --tls-private-key-file="$PKI/apiserver.key" --client-ca-file="$PKI/ca.crt" \
    --token-auth-file="$PKI/tokens.csv" --authorization-mode=Node,RBAC --enable-admission-plugins=NodeRestriction \
    --service-account-issuer="https://kubernetes.default.svc.cluster.local" \
    --service-account-key-file="$PKI/service-account.pub" --service-account-signing-key-file="$PKI/service-account.key" \
    --service-cluster-ip-range="$SERVICE_CIDR" --allow-privileged=true \
    --kubelet-client-certificate="$PKI/kubelet-client.crt" --kubelet-client-key="$PKI/kubelet-client.key" \
    --kubelet-preferred-address-types=Hostname,InternalIP --profiling=false
  await kube-apiserver 120 "ready (/readyz)" http_ok --cacert "$PKI/ca.crt" \
    -H "Authorization: Bearer $(token admin)" "https://127.0.0.1:$APISERVER_PORT/readyz"
  # Wait until the bootstrap RBAC roles exist before applying ours.
  await kube-apiserver 60 "its bootstrap roles" kubectl get clusterrole system:kubelet-api-admin
  kubectl apply -f - >"$RUN/rbac.log" 2>&1 <<YAML || { cat "$RUN/rbac.log" >&2; die "could not apply the cluster's RBAC"; }
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: { name: tessera:kube-apiserver-kubelet-client }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: system:kubelet-api-admin }
subjects: [{ apiGroup: rbac.authorization.k8s.io, kind: User, name: kube-apiserver-kubelet-client }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: tessera:coredns }
rules:
  - { apiGroups: [""], resources: [endpoints, services, pods, namespaces], verbs: [list, watch] }
  - { apiGroups: [discovery.k8s.io], resources: [endpointslices], verbs: [list, watch] }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: { name: tessera:coredns }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: tessera:coredns }
subjects: [{ apiGroup: rbac.authorization.k8s.io, kind: User, name: "tessera:coredns" }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: tessera:traefik }
rules:
  - { apiGroups: [""], resources: [services, endpoints, secrets, nodes], verbs: [get, list, watch] }
  - { apiGroups: [discovery.k8s.io], resources: [endpointslices], verbs: [get, list, watch] }
  - { apiGroups: [networking.k8s.io], resources: [ingresses, ingressclasses], verbs: [get, list, watch] }
  - { apiGroups: [networking.k8s.io], resources: [ingresses/status], verbs: [update] }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: { name: tessera:traefik }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: tessera:traefik }
subjects: [{ apiGroup: rbac.authorization.k8s.io, kind: User, name: "tessera:traefik" }]
---
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  name: traefik
  annotations: { ingressclass.kubernetes.io/is-default-class: "true" }
spec: { controller: traefik.io/ingress-controller }
YAML
}

start_scheduler() {
  launch kube-scheduler "$TESSERA_BIN/kube-scheduler" --kubeconfig="$RUN/scheduler.kubeconfig" \
    --authentication-kubeconfig="$RUN/scheduler.kubeconfig" --authorization-kubeconfig="$RUN/scheduler.kubeconfig" \
    --bind-address=127.0.0.1 --secure-port=20259 --leader-elect=false --profiling=false
}

start_controller_manager() {
  launch kube-controller-manager "$TESSERA_BIN/kube-controller-manager" \
    --kubeconfig="$RUN/controller-manager.kubeconfig" \
    --authentication-kubeconfig="$RUN/controller-manager.kubeconfig" \
    --authorization-kubeconfig="$RUN/controller-manager.kubeconfig" \
    --bind-address=127.0.0.1 --secure-port=20257 --leader-elect=false --profiling=false \
    --use-service-account-credentials=true --service-account-private-key-file="$PKI/service-account.key" \
    --root-ca-file="$PKI/ca.crt" --service-cluster-ip-range="$SERVICE_CIDR" --allocate-node-cidrs=false
}

# containerd's CRI for this machine: restrict_oom_score_adj (root lacks CAP_SYS_RESOURCE here, and
# runc fails to give the pause container a negative score), the CNI plugins where Debian puts
# them, the locally built pause image, network namespaces under its own state directory.
start_containerd() {
  mkdir -p "$RUN/containerd"
  cat >"$RUN/containerd/config.toml" <<TOML
version = 2
root = "$RUN/containerd/root"
state = "$RUN/containerd/state"
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.internal.v1.tracing"]
[grpc]
  address = "$CONTAINERD_SOCK"
[ttrpc]
  address = "$RUN/containerd/containerd.sock.ttrpc"
[plugins."io.containerd.internal.v1.opt"]
  path = "$RUN/containerd/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$PAUSE_IMAGE"
  restrict_oom_score_adj = true
  netns_mounts_under_state_dir = true
  stream_server_address = "127.0.0.1"
  enable_selinux = false
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$RUN/cni/net.d"
TOML
  launch containerd containerd --config "$RUN/containerd/config.toml"
  await containerd 60 "its socket" ctr --address "$CONTAINERD_SOCK" version
  local rootfs="$RUN/pause-rootfs"
  mkdir -p "$rootfs"
  cp "$TESSERA_BIN/pause" "$rootfs/pause"
  CONTAINERD_ADDRESS=$CONTAINERD_SOCK "$TOOLS/image.sh" --rootfs "$rootfs" --name "$PAUSE_IMAGE" \
    --entrypoint '["/pause"]' --import >/dev/null
}

start_kubelet() {
  mkdir -p "$RUN/kubelet" "$RUN/pod-logs"
  cat >"$RUN/kubelet.yaml" <<YAML
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
cgroupDriver: cgroupfs
failCgroupV1: false
failSwapOn: false
containerRuntimeEndpoint: unix://$CONTAINERD_SOCK
address: 127.0.0.1
port: 20250
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: 20248
podLogsDir: $RUN/pod-logs
clusterDNS: [$GATEWAY]
clusterDomain: cluster.local
authentication:
  anonymous: { enabled: false }
  webhook: { enabled: true }
  x509: { clientCAFile: $PKI/ca.crt }
authorization: { mode: Webhook }
# This machine's disk and memory are shared: evict only when really short.
evictionHard: { memory.available: 100Mi, nodefs.available: 2%, imagefs.available: 2%, nodefs.inodesFree: 2% }
imageGCHighThresholdPercent: 99
imageGCLowThresholdPercent: 98
serializeImagePulls: false
YAML
  launch kubelet "$TESSERA_BIN/kubelet" --config="$RUN/kubelet.yaml" --kubeconfig="$RUN/kubelet.kubeconfig" \
    --root-dir="$RUN/kubelet" --cert-dir="$RUN/kubelet/pki"
}

start_proxy() {
  cat >"$RUN/kube-proxy.yaml" <<YAML
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: { kubeconfig: $RUN/proxy.kubeconfig }
hostnameOverride: $NODE
mode: iptables
clusterCIDR: $POD_CIDR
healthzBindAddress: 127.0.0.1:20256
metricsBindAddress: 127.0.0.1:20249
# Leave the machine's conntrack sysctls and route_localnet as they are.
conntrack: { maxPerCore: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s }
iptables: { localhostNodePorts: false }
YAML
  launch kube-proxy "$TESSERA_BIN/kube-proxy" --config="$RUN/kube-proxy.yaml"
  await kube-proxy 60 "healthy (/healthz)" http_ok http://127.0.0.1:20256/healthz
}

# CoreDNS as a host process on the bridge's address, which is kubelet's clusterDNS: it needs no
# image (the binary is dynamically linked), it answers before the node is Ready, and it stops
# with the rest of the control plane. Only cluster.local (and reverse lookups of pod and service
# addresses) are answered; any other name does not exist (NXDOMAIN): nothing is forwarded off the
# node.
start_coredns() {
  cat >"$RUN/Corefile" <<COREFILE
cluster.local:53 in-addr.arpa:53 ip6.arpa:53 {
  bind $GATEWAY
  errors
  health 127.0.0.1:20180
  ready 127.0.0.1:20181
  kubernetes cluster.local in-addr.arpa ip6.arpa {
    kubeconfig $RUN/coredns.kubeconfig tessera-cluster
    pods insecure
    fallthrough in-addr.arpa ip6.arpa
  }
  cache 5
}
.:53 {
  bind $GATEWAY
  errors
  template ANY ANY {
    rcode NXDOMAIN
  }
}
COREFILE
  launch coredns "$TESSERA_BIN/coredns" -conf "$RUN/Corefile"
  await coredns 60 "ready (/ready)" http_ok http://127.0.0.1:20181/ready
  await coredns 30 "an answer for kubernetes.default" \
    busybox nslookup "kubernetes.default.svc.cluster.local" "$GATEWAY"
}

# Traefik watches Ingress resources (class traefik, the default) through the API server and
# proxies 127.0.0.1:INGRESS_PORT to the pods' addresses on the bridge.
start_traefik() {
  launch traefik "$TESSERA_BIN/traefik" --global.checkNewVersion=false --global.sendAnonymousUsage=false \
    --entryPoints.web.address="127.0.0.1:$INGRESS_PORT" --entryPoints.traefik.address="127.0.0.1:$INGRESS_ADMIN_PORT" \
    --ping=true --ping.entryPoint=traefik --log.level=INFO --log.noColor=true \
    --providers.kubernetesIngress=true --providers.kubernetesIngress.endpoint="https://127.0.0.1:$APISERVER_PORT" \
    --providers.kubernetesIngress.token="$(token traefik)" \
    --providers.kubernetesIngress.certAuthFilePath="$PKI/ca.crt" \
    --providers.kubernetesIngress.ingressEndpoint.ip=127.0.0.1
  await traefik 60 "ready (/ping)" http_ok "http://127.0.0.1:$INGRESS_ADMIN_PORT/ping"
}

node_ready() {
  [[ $(kubectl get node "$NODE" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}') == True ]]
}

print_env() {
  echo "KUBECONFIG=$RUN/admin.kubeconfig"
  echo "INGRESS_URL=http://127.0.0.1:$INGRESS_PORT"
  echo "CONTAINERD_ADDRESS=$CONTAINERD_SOCK"
  echo "CLUSTER_LOGS=$RUN"
}

up() {
  local name all=1 any=0
  for name in "${DAEMONS[@]}"; do if running "$name"; then any=1; else all=0; fi; done
  if ((all)) && [[ -f $RUN/up ]]; then
    print_env
    return
  fi
  ((any)) && die "the cluster is partly running (tools/cluster.sh status): stop it first (tools/cluster.sh down)"
  for name in "$ETCD_PORT:CLUSTER_ETCD_PORT" "$ETCD_PEER_PORT:CLUSTER_ETCD_PEER_PORT" \
    "$APISERVER_PORT:CLUSTER_APISERVER_PORT" "$INGRESS_PORT:CLUSTER_INGRESS_PORT" \
    "$INGRESS_ADMIN_PORT:CLUSTER_INGRESS_ADMIN_PORT"; do
    port_free cluster "${name%%:*}" "${name#*:}"
  done
  for name in 20259 20257 20250 20248 20256 20249 20180 20181; do
    ! port_open "$name" || die "cluster: 127.0.0.1:$name (a fixed port of the cluster's daemons) is already in use"
  done
  [[ $(id -u) -eq 0 ]] || die "the cluster needs root (network interfaces, iptables, mounts)"
  "$TOOLS/install.sh" kubernetes cluster
  local started=$SECONDS
  # From here on, a failure (or an interruption) takes down whatever was started.
  trap 'code=$?; if ((code != 0)); then log "up failed: stopping what it started"; down >&2; fi' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM HUP
  # What a crashed earlier run left (mounts, interfaces, chains) goes first; nothing of it runs.
  [[ ! -e $RUN ]] || down
  mkdir -p "$RUN"
  make_pki
  network_up
  start_etcd
  start_apiserver
  start_scheduler
  start_controller_manager
  start_containerd
  start_kubelet
  # (the scheduler and controller manager have had time to start meanwhile)
  await kube-scheduler 60 "healthy (/healthz)" http_ok --insecure https://127.0.0.1:20259/healthz
  await kube-controller-manager 60 "healthy (/healthz)" http_ok --insecure https://127.0.0.1:20257/healthz
  await kubelet 120 "its node Ready" node_ready
  start_proxy
  start_coredns
  start_traefik
  touch "$RUN/up"
  log "cluster up in $((SECONDS - started)) s (node $NODE; logs in $RUN)"
  print_env
  echo "STARTED=cluster"
}

# stop NAME: SIGTERM to its process group, SIGKILL after 10 s.
stop() {
  local file pid
  file=$(pidfile "$1")
  [[ -f $file ]] || return 0
  pid=$(cat "$file")
  kill -TERM -- "-$pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL -- "-$pid" 2>/dev/null || true
  rm -f "$file"
}

# The containers: containerd's shims run in sessions of their own, so they are found by the
# socket address on their command line (this cluster's only), and their containers killed first.
stop_containers() {
  if [[ -S $CONTAINERD_SOCK ]] && running containerd; then
    local ctr=(ctr --address "$CONTAINERD_SOCK" --namespace k8s.io) task
    for task in $("${ctr[@]}" tasks list --quiet 2>/dev/null); do
      "${ctr[@]}" tasks kill --signal SIGKILL "$task" >/dev/null 2>&1 || true
    done
    for task in $("${ctr[@]}" tasks list --quiet 2>/dev/null); do
      timeout 10 "${ctr[@]}" tasks delete --force "$task" >/dev/null 2>&1 || true
    done
  fi
  stop containerd
  local proc pid
  for proc in /proc/[0-9]*; do
    pid=${proc#/proc/}
    if tr '\0' ' ' 2>/dev/null <"$proc/cmdline" | grep -q -- "containerd-shim.* -address $CONTAINERD_SOCK "; then
      kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    fi
  done
}

down() {
  local name
  # Traefik and CoreDNS first, then kube-proxy (and its iptables rules), kubelet (so that it does
  # not restart what is stopped next), the containers, the rest of the control plane.
  stop traefik
  stop coredns
  stop kube-proxy
  if [[ -x $TESSERA_BIN/kube-proxy ]] && [[ -d $RUN ]]; then
    "$TESSERA_BIN/kube-proxy" --cleanup >"$RUN/kube-proxy-cleanup.log" 2>&1 || true
  fi
  stop kubelet
  stop_containers
  for name in kube-controller-manager kube-scheduler kube-apiserver etcd; do stop "$name"; done
  # What kubelet and containerd mounted (volumes, rootfs, network namespaces), deepest first.
  local mount
  for _ in 1 2 3; do
    mount=$(findmnt --raw --noheadings --output TARGET | grep -F "$RUN/" | sort -r || true)
    [[ -n $mount ]] || break
    while read -r target; do umount "$target" 2>/dev/null || umount --lazy "$target" 2>/dev/null || true; done <<<"$mount"
  done
  # The pods' veth ends go with their namespaces; any left on the bridge go now, then the bridge.
  local veth
  for veth in $(ip -o link show master "$BRIDGE" 2>/dev/null | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }'); do
    ip link delete "$veth" 2>/dev/null || true
  done
  ip link delete "$BRIDGE" 2>/dev/null || true
  sweep_chains
  # kubelet's pod cgroups (cgroupfs driver), empty once the containers are gone.
  local hierarchy
  for hierarchy in /sys/fs/cgroup/*/kubepods /sys/fs/cgroup/kubepods; do
    [[ -d $hierarchy ]] && find "$hierarchy" -depth -type d -exec rmdir {} + 2>/dev/null || true
  done
  # The links kubelet makes in /var/log/containers to its pods' logs.
  local link
  for link in /var/log/containers/*.log; do
    [[ -L $link && $(readlink "$link") == "$RUN/"* ]] && rm -f "$link"
  done
  if [[ -f $RUN/ip_forward ]]; then sysctl -q -w "net.ipv4.ip_forward=$(cat "$RUN/ip_forward")" || true; fi
  if findmnt --raw --noheadings --output TARGET | grep -qF "$RUN/"; then
    die "down: something is still mounted under $RUN (see findmnt)"
  fi
  rm -rf "$RUN"
}

status() {
  local name
  for name in "${DAEMONS[@]}"; do
    if running "$name"; then echo "$name: running (pid $(cat "$(pidfile "$name")"))"; else echo "$name: stopped"; fi
  done
  if running kube-apiserver; then kubectl get nodes 2>&1 || true; fi
}

case "${1:-status}" in
  up) up ;;
  down) down ;;
  status) status ;;
  *) die "usage: tools/cluster.sh up|down|status" ;;
esac
