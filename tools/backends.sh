#!/usr/bin/env bash
# Starts, stops and reports the real servers on loopback, with data under a temporary directory.
#   tools/backends.sh up [server…]     install if needed, start, wait until each answers
#   tools/backends.sh down [server…]   stop them; no process is left behind
#   tools/backends.sh status
# Servers: redis nats minio nginx cassandra elasticsearch kubernetes (etcd + kube-apiserver), and
# by name only the mail peers spamd clamd smtp-sink dnsmasq (tools/mail-peers.sh);
# `up`/`down` without names mean all of them. `up` prints NAME=WHERE for each (REDIS_URL, …,
# TEST_KUBECONFIG) and STARTED=NAME for each process it started itself (kubernetes: etcd and
# kube-apiserver); a server of an earlier `up` with the same settings is reused, one with other
# settings is an error. Ports (and variables):
#   REDIS_PORT 16379, NATS_PORT 14222, MINIO_PORT 19000, NGINX_PORT 18088 (proxying to
#   NGINX_UPSTREAM, default 127.0.0.1:8080: the local stand-in for the ingress), CASSANDRA_PORT
#   19042 (CASSANDRA_STORAGE_PORT 17000), ELASTICSEARCH_PORT 19200 (ELASTICSEARCH_TRANSPORT_PORT
#   19300), ETCD_PORT 12379 (ETCD_PEER_PORT 12380), KUBE_APISERVER_PORT 16443.
# Heaps: CASSANDRA_HEAP 1g, ELASTICSEARCH_HEAP 512m. Logs and data: $TESSERA_RUN (lib.sh).
# NGINX_UPSTREAM may name several servers, separated by spaces (nginx balances over them).
# KEEP_DATA=1: the data directories outlive `down` and are reused by the next `up`, and Redis
# keeps an append-only file (what `make run-distributed` runs on); by default every `up` starts
# empty and `down` removes the data.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/mail-tools.sh"
source "$(dirname "$0")/mail-peers.sh"

REDIS_PORT="${REDIS_PORT:-16379}"
NATS_PORT="${NATS_PORT:-14222}"
MINIO_PORT="${MINIO_PORT:-19000}"
NGINX_PORT="${NGINX_PORT:-18088}"
NGINX_UPSTREAM="${NGINX_UPSTREAM:-127.0.0.1:8080}"
CASSANDRA_PORT="${CASSANDRA_PORT:-19042}"
CASSANDRA_STORAGE_PORT="${CASSANDRA_STORAGE_PORT:-17000}"
CASSANDRA_HEAP="${CASSANDRA_HEAP:-1g}"
ELASTICSEARCH_PORT="${ELASTICSEARCH_PORT:-19200}"
ELASTICSEARCH_TRANSPORT_PORT="${ELASTICSEARCH_TRANSPORT_PORT:-19300}"
ELASTICSEARCH_HEAP="${ELASTICSEARCH_HEAP:-512m}"
ETCD_PORT="${ETCD_PORT:-12379}"
ETCD_PEER_PORT="${ETCD_PEER_PORT:-12380}"
KUBE_APISERVER_PORT="${KUBE_APISERVER_PORT:-16443}"
ALL_SERVERS=(redis nats minio nginx cassandra elasticsearch kubernetes)

# The processes this invocation started: if it fails (a server did not answer in time, or it
# was interrupted), all of them are stopped on the way out, so that a failure leaves nothing.
STARTED_HERE=()
trap 'code=$?; if ((code != 0)); then for name in "${STARTED_HERE[@]}"; do stop "$name"; done; fi' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

pidfile() { echo "$TESSERA_RUN/$1.pid"; }
# What a running server was started with (its port, and settings that change what it is).
settingsfile() { echo "$TESSERA_RUN/$1.settings"; }
datadir() { echo "$TESSERA_RUN/$1-data"; }
running() { [[ -f $(pidfile "$1") ]] && kill -0 "$(cat "$(pidfile "$1")")" 2>/dev/null; }

# already_up NAME SETTINGS: true when NAME runs with these SETTINGS (a server of an earlier `up`,
# reused); fails loudly when it runs with others, since the caller would get the wrong server.
already_up() {
  local name=$1 settings=$2
  running "$name" || return 1
  local had
  had=$(cat "$(settingsfile "$name")" 2>/dev/null || echo unknown)
  [[ $had == "$settings" ]] ||
    die "$name is already running with other settings ($had, not $settings): stop it first (tools/backends.sh down)"
}

# start NAME PORT SETTINGS COMMAND…: runs COMMAND in its own session (so that `down` can stop
# everything it spawned), logging to $TESSERA_RUN/NAME.log, waits until PORT accepts
# connections, and prints STARTED=NAME. The caller prepares NAME's data directory and checks its
# other ports.
start() {
  local name=$1 port=$2 settings=$3
  shift 3
  local logfile="$TESSERA_RUN/$name.log"
  port_free "$name" "$port" "$(port_variable "$name")"
  STARTED_HERE+=("$name")
  setsid "$@" >"$logfile" 2>&1 </dev/null &
  local pid=$!
  echo "$pid" >"$(pidfile "$name")"
  echo "$settings" >"$(settingsfile "$name")"
  wait_for_port "$name" "$port" "$logfile" "${START_TIMEOUT:-60}" "$pid"
  echo "STARTED=$name"
}

port_variable() { echo "$(echo "$1" | tr 'a-z-' 'A-Z_')_PORT"; }

KEEP_DATA="${KEEP_DATA:-0}"

# NAME's data directory: fresh and empty (what an earlier run left is removed), or as an earlier
# run left it with KEEP_DATA=1.
fresh_datadir() {
  local dir
  dir=$(datadir "$1")
  [[ $KEEP_DATA == 1 ]] || rm -rf "$dir"
  mkdir -p "$dir"
  echo "$dir"
}

# stop NAME: SIGTERM to its whole process group, SIGKILL after 10 s, then its data is removed.
stop() {
  local name=$1 file pid
  file=$(pidfile "$name")
  [[ -f $file ]] || return 0
  pid=$(cat "$file")
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL -- "-$pid" 2>/dev/null || true
  rm -f "$file" "$(settingsfile "$name")"
  [[ $KEEP_DATA == 1 ]] || rm -rf "$(datadir "$name")"
}

up_redis() {
  if ! already_up redis "port $REDIS_PORT"; then
    local dir
    dir=$(fresh_datadir redis)
    local appendonly=no
    [[ $KEEP_DATA == 1 ]] && appendonly=yes
    start redis "$REDIS_PORT" "port $REDIS_PORT" redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" \
      --appendonly "$appendonly" --dir "$dir"
  fi
  echo "REDIS_URL=redis://127.0.0.1:$REDIS_PORT"
}

up_nats() {
  if ! already_up nats "port $NATS_PORT"; then
    local dir
    dir=$(fresh_datadir nats)
    start nats "$NATS_PORT" "port $NATS_PORT" "$TESSERA_BIN/nats-server" -a 127.0.0.1 -p "$NATS_PORT" -js -sd "$dir"
  fi
  echo "NATS_URL=nats://127.0.0.1:$NATS_PORT"
}

up_minio() {
  if ! already_up minio "port $MINIO_PORT"; then
    local dir
    dir=$(fresh_datadir minio)
    MINIO_ROOT_USER=tessera MINIO_ROOT_PASSWORD=tessera-secret-key MINIO_BROWSER=off \
      start minio "$MINIO_PORT" "port $MINIO_PORT" "$TESSERA_BIN/minio" server --quiet \
      --address "127.0.0.1:$MINIO_PORT" "$dir"
  fi
  echo "MINIO_URL=http://tessera:tessera-secret-key@127.0.0.1:$MINIO_PORT"
}

up_nginx() {
  if ! already_up nginx "port $NGINX_PORT, upstream $NGINX_UPSTREAM"; then
    local dir
    dir=$(fresh_datadir nginx)
    mkdir -p "$dir/logs"
    local upstream="" server
    for server in $NGINX_UPSTREAM; do upstream+="server $server; "; done
    cat >"$dir/nginx.conf" <<CONF
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $dir/body;
  proxy_temp_path $dir/proxy;
  fastcgi_temp_path $dir/fastcgi;
  uwsgi_temp_path $dir/uwsgi;
  scgi_temp_path $dir/scgi;
  upstream tessera { ${upstream}keepalive 64; }
  server {
    listen 127.0.0.1:$NGINX_PORT;
    location / {
      proxy_pass http://tessera;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$host;
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
    }
  }
}
CONF
    start nginx "$NGINX_PORT" "port $NGINX_PORT, upstream $NGINX_UPSTREAM" /usr/sbin/nginx -c "$dir/nginx.conf" \
      -p "$dir" -g "daemon off;"
  fi
  echo "NGINX_URL=http://127.0.0.1:$NGINX_PORT"
}

# The module flags of Cassandra's Java 17 options (conf/jvm17-server.options): it reaches into
# JDK internals for off-heap memory, mmap cleaning and JMX.
CASSANDRA_JPMS=(
  -Djdk.attach.allowAttachSelf=true
  --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED
  --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED
  --add-exports=java.base/sun.nio.ch=ALL-UNNAMED
  --add-exports=java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED
  --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED
  --add-exports=java.rmi/sun.rmi.server=ALL-UNNAMED
  --add-exports=java.sql/java.sql=ALL-UNNAMED
  --add-exports=java.base/java.lang.ref=ALL-UNNAMED
  --add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED
  --add-opens=java.base/java.lang.module=ALL-UNNAMED
  --add-opens=java.base/jdk.internal.loader=ALL-UNNAMED
  --add-opens=java.base/jdk.internal.ref=ALL-UNNAMED
  --add-opens=java.base/jdk.internal.reflect=ALL-UNNAMED
  --add-opens=java.base/jdk.internal.math=ALL-UNNAMED
  --add-opens=java.base/jdk.internal.module=ALL-UNNAMED
  --add-opens=java.base/jdk.internal.util.jar=ALL-UNNAMED
  --add-opens=jdk.management/com.sun.management.internal=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED
  --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.math=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED
)

up_cassandra() {
  local settings="port $CASSANDRA_PORT, storage $CASSANDRA_STORAGE_PORT, heap $CASSANDRA_HEAP"
  if ! already_up cassandra "$settings"; then
    port_free cassandra "$CASSANDRA_STORAGE_PORT" CASSANDRA_STORAGE_PORT
    local home="$TESSERA_CACHE/cassandra-$CASSANDRA_VERSION" dir
    dir=$(fresh_datadir cassandra)
    # One node, one token, no auth, everything on loopback; the rest are Cassandra's defaults.
    cat >"$dir/cassandra.yaml" <<YAML
cluster_name: tessera-test
num_tokens: 1
auto_bootstrap: false
partitioner: org.apache.cassandra.dht.Murmur3Partitioner
endpoint_snitch: SimpleSnitch
data_file_directories: [$dir/data]
commitlog_directory: $dir/commitlog
saved_caches_directory: $dir/saved_caches
hints_directory: $dir/hints
cdc_raw_directory: $dir/cdc_raw
commitlog_sync: periodic
commitlog_sync_period: 10000ms
seed_provider:
  - class_name: org.apache.cassandra.locator.SimpleSeedProvider
    parameters:
      - seeds: "127.0.0.1:$CASSANDRA_STORAGE_PORT"
listen_address: 127.0.0.1
rpc_address: 127.0.0.1
storage_port: $CASSANDRA_STORAGE_PORT
native_transport_port: $CASSANDRA_PORT
start_native_transport: true
authenticator: AllowAllAuthenticator
authorizer: AllowAllAuthorizer
YAML
    cat >"$dir/logback.xml" <<'XML'
<configuration>
  <appender name="STDOUT" class="ch.qos.logback.core.ConsoleAppender">
    <encoder><pattern>%-5level [%thread] %date{ISO8601} %logger{0}: %msg%n</pattern></encoder>
  </appender>
  <root level="INFO"><appender-ref ref="STDOUT" /></root>
</configuration>
XML
    START_TIMEOUT=180 start cassandra "$CASSANDRA_PORT" "$settings" java -Xms"$CASSANDRA_HEAP" -Xmx"$CASSANDRA_HEAP" \
      -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError -XX:ActiveProcessorCount=2 -Djava.net.preferIPv4Stack=true "${CASSANDRA_JPMS[@]}" \
      -Dcassandra-foreground=yes -Dcassandra.config="file://$dir/cassandra.yaml" \
      -Dcassandra.storagedir="$dir" -Dlogback.configurationFile="$dir/logback.xml" \
      -Dcassandra.skip_wait_for_gossip_to_settle=0 -Dcassandra.ring_delay_ms=0 \
      -Dcassandra.superuser_setup_delay_ms=0 \
      -cp "$home/lib/*" org.apache.cassandra.service.CassandraDaemon
  fi
  echo "CASSANDRA_URL=cassandra://127.0.0.1:$CASSANDRA_PORT/datacenter1"
}

up_elasticsearch() {
  local settings="port $ELASTICSEARCH_PORT, transport $ELASTICSEARCH_TRANSPORT_PORT, heap $ELASTICSEARCH_HEAP"
  if ! already_up elasticsearch "$settings"; then
    port_free elasticsearch "$ELASTICSEARCH_TRANSPORT_PORT" ELASTICSEARCH_TRANSPORT_PORT
    local dir home
    dir=$(fresh_datadir elasticsearch)
    # Elasticsearch refuses to run as root: as root, it runs as `nobody` from a copy of its
    # files that `nobody` can read (the cache is under root's home).
    home="$TESSERA_CACHE/elasticsearch-$ELASTICSEARCH_VERSION"
    local as=()
    mkdir -p "$dir/data" "$dir/logs" "$dir/tmp"
    if [[ $(id -u) -eq 0 ]]; then
      cp -a "$home" "$dir/home"
      home="$dir/home"
      chown -R 65534:65534 "$dir"
      as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    fi
    ES_JAVA_HOME="${ES_JAVA_HOME:-$(java_home)}" ES_TMPDIR="$dir/tmp" \
      ES_JAVA_OPTS="-Xms$ELASTICSEARCH_HEAP -Xmx$ELASTICSEARCH_HEAP -XX:ActiveProcessorCount=2" \
      START_TIMEOUT=180 start elasticsearch "$ELASTICSEARCH_PORT" "$settings" "${as[@]}" "$home/bin/elasticsearch" \
      -Ediscovery.type=single-node -Enetwork.host=127.0.0.1 -Ehttp.port="$ELASTICSEARCH_PORT" \
      -Etransport.port="$ELASTICSEARCH_TRANSPORT_PORT" -Epath.data="$dir/data" -Epath.logs="$dir/logs" \
      -Expack.security.enabled=false -Ecluster.routing.allocation.disk.threshold_enabled=false
    wait_for_http elasticsearch "$TESSERA_RUN/elasticsearch.log" 120 \
      "http://127.0.0.1:$ELASTICSEARCH_PORT/_cluster/health?wait_for_status=yellow&timeout=1s"
  fi
  echo "ELASTICSEARCH_URL=http://127.0.0.1:$ELASTICSEARCH_PORT"
}

java_home() { java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.home = //p'; }

# envtest's pair: etcd, then kube-apiserver in front of it, with a throwaway CA, serving
# certificate and service-account key, one static admin token, RBAC on. No kubelet: objects
# are stored and watched, nothing is scheduled.
up_kubernetes() {
  if ! already_up etcd "port $ETCD_PORT, peer $ETCD_PEER_PORT"; then
    port_free etcd "$ETCD_PEER_PORT" ETCD_PEER_PORT
    local data
    data=$(fresh_datadir etcd)
    start etcd "$ETCD_PORT" "port $ETCD_PORT, peer $ETCD_PEER_PORT" "$TESSERA_BIN/etcd" --name tessera-test \
      --data-dir "$data" \
      --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
      --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
      --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
      --initial-cluster "tessera-test=http://127.0.0.1:$ETCD_PEER_PORT" --unsafe-no-fsync
  fi
  local dir
  dir=$(datadir kube-apiserver)
  if ! already_up kube-apiserver "port $KUBE_APISERVER_PORT, etcd $ETCD_PORT"; then
    dir=$(fresh_datadir kube-apiserver)
    (
      cd "$dir"
      openssl req -x509 -newkey rsa:2048 -nodes -days 7 -subj /CN=tessera-test-ca -keyout ca.key -out ca.crt
      openssl req -newkey rsa:2048 -nodes -subj /CN=kube-apiserver -keyout apiserver.key -out apiserver.csr
      printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >san.ext
      openssl x509 -req -days 7 -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial -extfile san.ext \
        -out apiserver.crt
      openssl genrsa -out service-account.key 2048
      openssl rsa -in service-account.key -pubout -out service-account.pub
      echo "$(openssl rand -hex 24),tessera-admin,tessera-admin,system:masters" >tokens.csv
    ) >"$dir/pki.log" 2>&1 || { cat "$dir/pki.log" >&2; die "could not make the API server's certificates"; }
    START_TIMEOUT=120 start kube-apiserver "$KUBE_APISERVER_PORT" "port $KUBE_APISERVER_PORT, etcd $ETCD_PORT" \
      "$TESSERA_BIN/kube-apiserver" \
      --etcd-servers="http://127.0.0.1:$ETCD_PORT" --bind-address=127.0.0.1 --advertise-address=127.0.0.1 \
      --secure-port="$KUBE_APISERVER_PORT" --cert-dir="$dir" \
      --tls-cert-file="$dir/apiserver.crt" --tls-private-key-file="$dir/apiserver.key" \
      --token-auth-file="$dir/tokens.csv" --authorization-mode=RBAC \
      --service-account-issuer="https://127.0.0.1:$KUBE_APISERVER_PORT" \
      --service-account-key-file="$dir/service-account.pub" \
      --service-account-signing-key-file="$dir/service-account.key" \
      --service-cluster-ip-range=10.96.0.0/24 --allow-privileged=true
    local token
    token=$(cut -d, -f1 "$dir/tokens.csv")
    cat >"$dir/kubeconfig" <<YAML
apiVersion: v1
kind: Config
clusters:
  - name: tessera-test
    cluster:
      server: https://127.0.0.1:$KUBE_APISERVER_PORT
      certificate-authority: $dir/ca.crt
users:
  - name: tessera-admin
    user:
      token: $token
contexts:
  - name: tessera-test
    context: { cluster: tessera-test, user: tessera-admin }
current-context: tessera-test
YAML
    wait_for_http kube-apiserver "$TESSERA_RUN/kube-apiserver.log" 120 --cacert "$dir/ca.crt" \
      -H "Authorization: Bearer $token" "https://127.0.0.1:$KUBE_APISERVER_PORT/readyz"
  fi
  echo "TEST_KUBECONFIG=$dir/kubeconfig"
}

up() {
  local tools=()
  for name in "$@"; do
    case "$name" in
      redis | nats | minio | nginx | cassandra | elasticsearch | kubernetes) tools+=("$name") ;;
      spamd | clamd | smtp-sink | dnsmasq) tools+=(mail) ;;
      *) die "unknown server '$name' (known: ${ALL_SERVERS[*]} ${MAIL_PEERS[*]})" ;;
    esac
  done
  "$(dirname "$0")/install.sh" "${tools[@]}"
  for name in "$@"; do "up_$name"; done
}

down() {
  for name in "$@"; do
    case "$name" in
      kubernetes) stop kube-apiserver && stop etcd ;;
      *) stop "$name" ;;
    esac
  done
}

status() {
  for name in redis nats minio nginx cassandra elasticsearch etcd kube-apiserver "${MAIL_PEERS[@]}"; do
    if running "$name"; then echo "$name: running (pid $(cat "$(pidfile "$name")"))"; else echo "$name: stopped"; fi
  done
}

command=${1:-status}
shift || true
servers=("$@")
((${#servers[@]})) || servers=("${ALL_SERVERS[@]}")
case "$command" in
  up) up "${servers[@]}" ;;
  down) down "${servers[@]}" ;;
  status) status ;;
  *) die "usage: tools/backends.sh up|down|status [${ALL_SERVERS[*]}]" ;;
esac
