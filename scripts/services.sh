#!/usr/bin/env bash
# services.sh - the real servers the integration tests talk to, all on 127.0.0.1:
#   Postfix + Dovecot (scripts/mailstack.sh) and PostgreSQL (scripts/pgstack.sh).
#
#   bash scripts/services.sh install                        # apt packages (root; quick no-op when present)
#   out=$(bash scripts/services.sh start) && eval "$out"    # start both, prints `export ...` lines
#   bash scripts/services.sh stop                           # stop both (CLEAN=1 also deletes their state)
#
# Capture the output before eval: `eval "$(... start)"` would hide a failed start.
# State dirs and ports come from MAILSTACK_* / PGSTACK_* env vars (see the two stack scripts).
set -Eeuo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PACKAGES=(dovecot-imapd dovecot-lmtpd dovecot-submissiond postfix postgresql)

installed() {  # true if every package in PACKAGES is fully installed
  local pkg status
  for pkg in "${PACKAGES[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null) || return 1
    [[ $status == "install ok installed" ]] || return 1
  done
}

install() {
  if installed; then
    echo "services: packages already installed" >&2
    return 0
  fi
  if [[ $(id -u) != 0 ]]; then
    echo "services: installing ${PACKAGES[*]} needs root" >&2
    return 1
  fi
  # Keep the packages' postinst scripts from starting the *system* daemons (they would bind
  # 0.0.0.0:25/143/993/5432). Docker images usually ship a policy-rc.d; otherwise add one for the
  # duration of the install.
  local made_policy=0
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    made_policy=1
  fi
  # Postfix would otherwise ask which kind of mail server this is and write /etc/postfix/main.cf.
  # openssl comes in via dovecot-core -> ssl-cert. (`||` disables set -e, hence the && chain.)
  local rc=0
  echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections \
    && DEBIAN_FRONTEND=noninteractive apt-get update -qq \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${PACKAGES[@]}" >/dev/null \
    || rc=$?
  if (( made_policy )); then rm -f /usr/sbin/policy-rc.d; fi
  if (( rc )); then
    echo "services: apt-get failed (rc=$rc)" >&2
    return "$rc"
  fi
  echo "services: installed ${PACKAGES[*]}" >&2
}

start() {
  # PostgreSQL starts in the background while the mail stack starts in the foreground.
  local pg_out pg_pid mail_out mail_rc=0 pg_rc=0
  pg_out=$(mktemp)
  bash "$HERE/pgstack.sh" start > "$pg_out" &
  pg_pid=$!
  mail_out=$(bash "$HERE/mailstack.sh" start) || mail_rc=$?
  wait "$pg_pid" || pg_rc=$?
  if (( mail_rc || pg_rc )); then
    echo "services: start failed (mailstack rc=$mail_rc, pgstack rc=$pg_rc)" >&2
    rm -f "$pg_out"
    stop
    return 1
  fi
  printf '%s\n' "$mail_out"
  cat "$pg_out"
  rm -f "$pg_out"
}

stop() {
  local rc=0
  bash "$HERE/pgstack.sh" stop || rc=1
  bash "$HERE/mailstack.sh" stop || rc=1
  return $rc
}

case ${1:-} in
  install) install ;;
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 install|start|stop" >&2; exit 2 ;;
esac
