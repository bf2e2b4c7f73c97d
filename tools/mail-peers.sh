#!/usr/bin/env bash
# The mail peers as tools/backends.sh servers (sourced by it; installed by `install.sh mail`).
# Not part of the shared set: `backends.sh up` without names never starts them; ask by name:
#   tools/backends.sh up spamd clamd smtp-sink dnsmasq     (and `down` the same names)
# Ports: SPAMD_PORT 17830, CLAMD_PORT 13310, SMTP_SINK_PORT 12525 (SMTP_SINK_ARGS: extra
# smtp-sink options, e.g. "-r rcpt" for 4xx), DNSMASQ_PORT 15353 serving DNSMASQ_MX (default
# "remote.test,mx.remote.test,10") with mx.remote.test at 127.0.0.1. Tests start their own on
# free ports instead (apps/mail/test/helpers/peers.ts).

SPAMD_PORT="${SPAMD_PORT:-17830}"
CLAMD_PORT="${CLAMD_PORT:-13310}"
SMTP_SINK_PORT="${SMTP_SINK_PORT:-12525}"
SMTP_SINK_ARGS="${SMTP_SINK_ARGS:-}"
DNSMASQ_PORT="${DNSMASQ_PORT:-15353}"
DNSMASQ_MX="${DNSMASQ_MX:-remote.test,mx.remote.test,10}"
MAIL_PEERS=(spamd clamd smtp-sink dnsmasq)

up_spamd() {
  if ! already_up spamd "port $SPAMD_PORT"; then
    local dir
    dir=$(fresh_datadir spamd)
    # Loading the shipped rules takes a while on a busy machine.
    START_TIMEOUT=${START_TIMEOUT:-180} start spamd "$SPAMD_PORT" "port $SPAMD_PORT" /usr/sbin/spamd \
      --listen="127.0.0.1:$SPAMD_PORT" --min-children=1 --max-children=4 --nouser-config --local \
      --syslog=stderr --pidfile="$dir/spamd.pid" -u nobody
  fi
  echo "SPAMD_URL=spamd://127.0.0.1:$SPAMD_PORT"
}

up_clamd() {
  if ! already_up clamd "port $CLAMD_PORT"; then
    local dir
    dir=$(fresh_datadir clamd)
    printf '%s\n' "TCPSocket $CLAMD_PORT" 'TCPAddr 127.0.0.1' "DatabaseDirectory $CLAMAV_DB" 'Foreground yes' \
      "TemporaryDirectory $dir" "LogFile $dir/clamd.log" 'StreamMaxLength 30M' >"$dir/clamd.conf"
    start clamd "$CLAMD_PORT" "port $CLAMD_PORT" /usr/sbin/clamd -c "$dir/clamd.conf"
  fi
  echo "CLAMD_URL=clamd://127.0.0.1:$CLAMD_PORT"
}

up_smtp-sink() {
  if ! already_up smtp-sink "port $SMTP_SINK_PORT $SMTP_SINK_ARGS"; then
    fresh_datadir smtp-sink >/dev/null
    # shellcheck disable=SC2086 # SMTP_SINK_ARGS is a list of options
    start smtp-sink "$SMTP_SINK_PORT" "port $SMTP_SINK_PORT $SMTP_SINK_ARGS" /usr/sbin/smtp-sink -u nobody \
      $SMTP_SINK_ARGS "127.0.0.1:$SMTP_SINK_PORT" 256
  fi
  echo "SMTP_REMOTE_PORT=$SMTP_SINK_PORT"
}

up_dnsmasq() {
  if ! already_up dnsmasq "port $DNSMASQ_PORT mx $DNSMASQ_MX"; then
    local dir exchange
    dir=$(fresh_datadir dnsmasq)
    exchange=$(cut -d, -f2 <<<"$DNSMASQ_MX")
    start dnsmasq "$DNSMASQ_PORT" "port $DNSMASQ_PORT mx $DNSMASQ_MX" /usr/sbin/dnsmasq --keep-in-foreground \
      --no-resolv --no-hosts --port="$DNSMASQ_PORT" --listen-address=127.0.0.1 --bind-interfaces \
      --pid-file="$dir/dnsmasq.pid" --user=root --mx-host="$DNSMASQ_MX" --host-record="$exchange,127.0.0.1"
  fi
  echo "MAIL_DNS_SERVER=127.0.0.1:$DNSMASQ_PORT"
}
