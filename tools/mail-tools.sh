#!/usr/bin/env bash
# The real mail peers the mail tests talk to, from Debian (sourced by install.sh, target `mail`):
# Postfix's smtp-source and smtp-sink (no Postfix daemon is started or configured), swaks,
# dnsmasq (as a plain binary: dnsmasq-base has no service), SpamAssassin's spamd with its shipped
# rules, and ClamAV's clamd with a signature database made here (EICAR only; freshclam never runs).

# The signature database clamd loads (CLAMD_DATABASE in mail-peers.sh): one hash signature of the
# EICAR test file, computed here from the standard string, so nothing is downloaded.
CLAMAV_DB="$TESSERA_CACHE/clamav-db"
EICAR='X5O!P%@AP[4\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*'

# apt_install_quiet PACKAGE…: installs with every service start refused (policy-rc.d answers
# 101, "action forbidden"), so no daemon of these packages runs outside our tests.
apt_install_quiet() {
  local policy=/usr/sbin/policy-rc.d made=""
  if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\nexit 101\n' | as_root tee "$policy" >/dev/null
    as_root chmod +x "$policy"
    made=1
  fi
  # Postfix asks how to configure itself: not at all (we only use its test programs).
  echo 'postfix postfix/main_mailer_type select No configuration' | as_root debconf-set-selections 2>/dev/null || true
  # Other sessions may be installing too: wait for dpkg's lock rather than fail on it.
  local status=0 apt=(as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600)
  "${apt[@]}" install -y --no-install-recommends "$@" >/dev/null 2>&1 ||
    { "${apt[@]}" update >/dev/null && "${apt[@]}" install -y --no-install-recommends "$@" >/dev/null; } ||
    status=$?
  [[ -z $made ]] || as_root rm -f "$policy"
  return $status
}

install_mail() {
  local missing=()
  [[ -x /usr/sbin/smtp-source && -x /usr/sbin/smtp-sink ]] || missing+=(postfix)
  command -v swaks >/dev/null || missing+=(swaks)
  [[ -x /usr/sbin/dnsmasq ]] || missing+=(dnsmasq-base)
  [[ -x /usr/sbin/spamd ]] || missing+=(spamd spamassassin)
  [[ -x /usr/sbin/clamd ]] || missing+=(clamav-daemon)
  if ((${#missing[@]})); then
    log "installing ${missing[*]} (Debian)…"
    apt_install_quiet "${missing[@]}"
  fi
  for bin in /usr/sbin/smtp-source /usr/sbin/smtp-sink /usr/sbin/dnsmasq /usr/sbin/spamd /usr/sbin/clamd; do
    [[ -x $bin ]] || die "$bin did not install"
  done
  command -v swaks >/dev/null || die "swaks did not install"
  # A package's own daemon, if its postinst started one anyway, is not ours to keep.
  as_root postfix stop >/dev/null 2>&1 || true
  mkdir -p "$CLAMAV_DB"
  local hash size
  hash=$(printf '%s' "$EICAR" | md5sum | cut -d' ' -f1)
  size=$(printf '%s' "$EICAR" | wc -c)
  echo "$hash:$size:Tessera.Test.EICAR" >"$CLAMAV_DB/tessera-eicar.hdb"
  # SpamAssassin's rules: Debian ships them; sa-update (a download) is never run. A rules tree
  # the package installed is all spamd needs (GTUBE is in 20_vbounce/…, always on).
  [[ -d /usr/share/spamassassin ]] || die "SpamAssassin's rules are missing (/usr/share/spamassassin)"
}
