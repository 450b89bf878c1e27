#!/usr/bin/env bash
# mailstack.sh - throw-away mail servers for tests, reachable on 127.0.0.1 only:
#   Postfix  SMTP        $MAILSTACK_SMTP_PORT        (no AUTH, STARTTLS offered, accepts only known users)
#     -> LMTP $MAILSTACK_LMTP_PORT -> Dovecot (Maildir per user)
#   Dovecot  IMAP        $MAILSTACK_IMAP_PORT        (STARTTLS), IMAPS $MAILSTACK_IMAPS_PORT
#   Dovecot  submission  $MAILSTACK_SUBMISSION_PORT  (STARTTLS + AUTH, relays to Postfix)
# Plus-addressing: user+anything@domain is delivered to user's INBOX; the To header is untouched.
#
#   out=$(bash scripts/mailstack.sh start) && eval "$out"   # prints `export MAILSTACK_...=...` lines
#   bash scripts/mailstack.sh stop                          # CLEAN=1 also deletes $MAILSTACK_DIR
#
# Configs, certificates, queue, Maildirs, logs and pids all live in $MAILSTACK_DIR; nothing under
# /etc is changed. Must run as root (the daemons drop privileges to postfix/dovecot/mail).
# Packages: dovecot-imapd dovecot-lmtpd dovecot-submissiond postfix (see services.sh install).
set -Eeuo pipefail

: "${MAILSTACK_DIR:=/tmp/pbem-mailstack}"  # every parent must be world-traversable (o+x)
: "${MAILSTACK_DOMAIN:=pbem.test}"
: "${MAILSTACK_SMTP_PORT:=10025}"
: "${MAILSTACK_SUBMISSION_PORT:=10587}"
: "${MAILSTACK_IMAP_PORT:=10143}"
: "${MAILSTACK_IMAPS_PORT:=10993}"
: "${MAILSTACK_LMTP_PORT:=10024}"
# "local:password" pairs, space separated (no spaces or colons inside a password)
: "${MAILSTACK_USERS:=moderator:moderator-pw p1:p1-pw p2:p2-pw p3:p3-pw p4:p4-pw p5:p5-pw p6:p6-pw}"

D=$MAILSTACK_DIR
DOMAIN=$MAILSTACK_DOMAIN
PORTS=("$MAILSTACK_SMTP_PORT" "$MAILSTACK_SUBMISSION_PORT" "$MAILSTACK_IMAP_PORT"
       "$MAILSTACK_IMAPS_PORT" "$MAILSTACK_LMTP_PORT")

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Is something listening on 127.0.0.1:PORT? Read from /proc instead of connecting: a probe
# connection makes Dovecot spawn a login process, and stopping the stack while such a process is
# still starting up takes 6 s instead of 1.
listening() { grep -q "0100007F:$(printf %04X "$1") 00000000:0000 0A" /proc/net/tcp; }

wait_listening() {  # wait_listening PORT SECONDS
  local i
  for ((i = 0; i < $2 * 20; i++)); do
    listening "$1" && return 0
    sleep 0.05
  done
  echo "mailstack: nothing listens on 127.0.0.1:$1 after $2 s" >&2
  return 1
}

alive() {  # alive PID: process exists and is not a zombie waiting to be reaped by init
  local stat
  read -r stat 2>/dev/null < "/proc/$1/stat" || return 1
  stat=${stat##*) }
  [[ ${stat%% *} != Z ]]
}

running() {  # running NAME: the daemon recorded in $D/NAME.pid is alive and is ours
  local pid
  pid=$(cat "$D/$1.pid" 2>/dev/null) || return 1
  tr '\0' ' ' 2>/dev/null < "/proc/$pid/cmdline" | grep -qF -- "-c $D/"
}

check_dir() {
  # The daemons' children run as postfix/mail/dovecot: a 0700 parent (mktemp -d, pytest's
  # tmp_path) makes Postfix die silently and Dovecot fail to deliver.
  local p=$D mode
  while p=$(dirname "$p"); [[ $p != / ]]; do
    [[ -d $p ]] || continue
    mode=$(stat -c %A "$p")
    if [[ ${mode: -1} != [xt] ]]; then
      echo "mailstack: $p ($mode) is not world-traversable; chmod o+x it or use another MAILSTACK_DIR" >&2
      return 1
    fi
  done
}

make_certs() {
  # A small CA plus a server cert for 127.0.0.1/localhost signed by it (EC keys: fast to make).
  # Clients verify with ca.pem. Reused across restarts until it is about to expire.
  local c=$D/certs
  if [[ -s $c/cert.pem && -s $c/ca.pem ]] && openssl x509 -checkend 86400 -noout -in "$c/cert.pem" >/dev/null; then
    return 0
  fi
  mkdir -p "$c"
  cat > "$c/openssl.cnf" <<'EOF'
[req]
distinguished_name = dn
prompt = no
[dn]
CN = pbem test
[ca_ext]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[server_ext]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1, DNS:localhost
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
EOF
  local ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
  openssl req -config "$c/openssl.cnf" -x509 "${ec[@]}" -days 30 -subj "/CN=pbem test CA" \
    -extensions ca_ext -keyout "$c/ca.key" -out "$c/ca.pem" 2>/dev/null
  openssl req -config "$c/openssl.cnf" -new "${ec[@]}" -subj "/CN=localhost" \
    -keyout "$c/key.pem" -out "$c/server.csr" 2>/dev/null
  openssl x509 -req -in "$c/server.csr" -CA "$c/ca.pem" -CAkey "$c/ca.key" -set_serial "0x$(openssl rand -hex 8)" \
    -days 30 -extfile "$c/openssl.cnf" -extensions server_ext -out "$c/cert.pem" 2>/dev/null
  rm -f "$c/ca.key" "$c/server.csr"
  chmod 600 "$c/key.pem"
}

write_users() {
  # One passwd-file serves Dovecot's passdb and userdb; the auth process (user dovecot) reads it.
  local up
  : > "$D/dovecot/users"
  for up in $MAILSTACK_USERS; do
    echo "${up%%:*}@$DOMAIN:{PLAIN}${up#*:}::::::" >> "$D/dovecot/users"
  done
  chown root:dovecot "$D/dovecot/users"
  chmod 640 "$D/dovecot/users"
  # Postfix gets the same list so unknown recipients are refused with 550 at RCPT time.
  cut -d: -f1 "$D/dovecot/users" | sed 's/$/ OK/' > "$D/postfix/etc/vmailbox"
  # A stand-in for a DMARC checker (tests/hostile): Postfix stamps an
  # Authentication-Results header with the authserv-id mail.$DOMAIN on top of every
  # mail, passing DMARC for clients at 127.0.0.2 and failing it for all others.
  {
    echo "127.0.0.2 PREPEND Authentication-Results: mail.$DOMAIN; dmarc=pass header.from=$DOMAIN"
    echo "127.0.0.1 PREPEND Authentication-Results: mail.$DOMAIN; dmarc=fail header.from=$DOMAIN"
  } > "$D/postfix/etc/authres"
}

write_dovecot_conf() {
  cat > "$D/dovecot/dovecot.conf" <<EOF
instance_name = pbem-dovecot-$MAILSTACK_IMAP_PORT
base_dir = $D/dovecot/run
state_dir = $D/dovecot/state
log_path = $D/dovecot/dovecot.log
protocols = imap lmtp submission
listen = 127.0.0.1
hostname = mail.$DOMAIN

ssl = yes
ssl_cert = <$D/certs/cert.pem
ssl_key = <$D/certs/key.pem
ssl_dh = </usr/share/dovecot/dh.pem
ssl_min_protocol = TLSv1.2
disable_plaintext_auth = no
auth_mechanisms = plain login
# failed logins answer at once (default: 2 s delay)
auth_failure_delay = 0

# all mailboxes belong to the existing system user 'mail' (uid 8)
first_valid_uid = 8
mail_uid = mail
mail_gid = mail
mail_location = maildir:~/Maildir
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $D/dovecot/users
}
userdb {
  driver = passwd-file
  args = username_format=%u $D/dovecot/users
  default_fields = uid=mail gid=mail home=$D/mail/%d/%n
}
namespace inbox {
  inbox = yes
  separator = /
}

# user+detail@domain -> user's INBOX
recipient_delimiter = +
lmtp_save_to_detail_mailbox = no

service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $MAILSTACK_IMAP_PORT
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $MAILSTACK_IMAPS_PORT
    ssl = yes
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = $MAILSTACK_LMTP_PORT
  }
}
service submission-login {
  inet_listener submission {
    address = 127.0.0.1
    port = $MAILSTACK_SUBMISSION_PORT
  }
}
submission_relay_host = 127.0.0.1
submission_relay_port = $MAILSTACK_SMTP_PORT
submission_relay_trusted = yes
EOF
}

write_postfix_conf() {
  cat > "$D/postfix/etc/main.cf" <<EOF
compatibility_level = 3.6
config_directory = $D/postfix/etc
queue_directory = $D/postfix/spool
data_directory = $D/postfix/data
# postfix exits silently if maillog_file is not under maillog_file_prefixes
maillog_file = $D/postfix/maillog
maillog_file_prefixes = $D/postfix
mail_owner = postfix
setgid_group = postdrop
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
myhostname = mail.$DOMAIN
mydomain = $DOMAIN
myorigin = $DOMAIN
mydestination =
mynetworks = 127.0.0.0/8
relayhost =
alias_maps =
alias_database =
local_recipient_maps =
smtputf8_enable = no
biff = no

# every known user of \$DOMAIN is delivered to Dovecot over LMTP; user+detail is looked up as user
virtual_mailbox_domains = $DOMAIN
virtual_mailbox_maps = texthash:$D/postfix/etc/vmailbox
virtual_transport = lmtp:inet:127.0.0.1:$MAILSTACK_LMTP_PORT
recipient_delimiter = +
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
smtpd_client_restrictions = check_client_access texthash:$D/postfix/etc/authres
smtp_host_lookup = native
lmtp_host_lookup = native

smtpd_tls_security_level = may
smtpd_tls_chain_files = $D/certs/key.pem, $D/certs/cert.pem

# retry fast if Dovecot was not ready yet
queue_run_delay = 5s
minimal_backoff_time = 5s
maximal_backoff_time = 10s
EOF
  # Minimal master.cf without chroot (a chroot would need /etc files copied into the spool).
  cat > "$D/postfix/etc/master.cf" <<EOF
127.0.0.1:$MAILSTACK_SMTP_PORT inet n - n - - smtpd
pickup     unix  n  -  n  60     1  pickup
cleanup    unix  n  -  n  -      0  cleanup
qmgr       unix  n  -  n  300    1  qmgr
tlsmgr     unix  -  -  n  1000?  1  tlsmgr
rewrite    unix  -  -  n  -      -  trivial-rewrite
bounce     unix  -  -  n  -      0  bounce
defer      unix  -  -  n  -      0  bounce
trace      unix  -  -  n  -      0  bounce
verify     unix  -  -  n  -      1  verify
flush      unix  n  -  n  1000?  0  flush
proxymap   unix  -  -  n  -      -  proxymap
proxywrite unix  -  -  n  -      1  proxymap
smtp       unix  -  -  n  -      -  smtp
relay      unix  -  -  n  -      -  smtp
showq      unix  n  -  n  -      -  showq
error      unix  -  -  n  -      -  error
retry      unix  -  -  n  -      -  error
discard    unix  -  -  n  -      -  discard
lmtp       unix  -  -  n  -      -  lmtp
anvil      unix  -  -  n  -      1  anvil
scache     unix  -  -  n  -      1  scache
postlog    unix-dgram n - n  -   1  postlogd
EOF
}

start() {
  # restart semantics: a stack still running from this directory is stopped first
  if running postfix || running dovecot; then CLEAN=0 stop; fi
  check_dir
  local port
  for port in "${PORTS[@]}"; do
    if port_open "$port"; then
      echo "mailstack: 127.0.0.1:$port is already in use (another stack running?)" >&2
      return 1
    fi
  done
  trap 'echo "mailstack: start failed; logs: $D/dovecot/dovecot.log $D/postfix/maillog" >&2; CLEAN=0 stop' ERR

  mkdir -p "$D"/{dovecot/run,dovecot/state,mail,postfix/etc,postfix/spool,postfix/data}
  chmod 755 "$D" "$D/mail"
  chown mail:mail "$D/mail"
  chown postfix:postfix "$D/postfix/data"
  make_certs
  write_users
  write_dovecot_conf
  write_postfix_conf
  # The postfix command sleeps ~2 s when main.cf is brand new; backdating it avoids that.
  touch -d '-1 min' "$D/postfix/etc/main.cf" "$D/postfix/etc/master.cf"
  postfix -c "$D/postfix/etc" check  # also creates the queue dirs with the right owners

  # Both masters stay in the foreground (-F, -d), so $! is the master itself. setsid (which execs,
  # no fork, in a background job) gives each its own process group: on SIGTERM Postfix's master
  # signals its group, so its children exit at once, and Ctrl-C on the terminal can't reach them.
  setsid /usr/sbin/dovecot -F -c "$D/dovecot/dovecot.conf" > "$D/dovecot/stdout.log" 2>&1 &
  echo $! > "$D/dovecot.pid"
  setsid /usr/lib/postfix/sbin/master -c "$D/postfix/etc" -d > "$D/postfix/stdout.log" 2>&1 &
  echo $! > "$D/postfix.pid"

  for port in "${PORTS[@]}"; do wait_listening "$port" 20; done
  if ! running dovecot || ! running postfix; then
    echo "mailstack: a daemon exited during start" >&2
    false  # -> ERR trap
  fi
  trap - ERR

  # %q keeps the user list (it contains spaces) a single shell word
  printf 'export MAILSTACK_DIR=%q\n' "$D"
  printf 'export MAILSTACK_DOMAIN=%q\n' "$DOMAIN"
  printf 'export MAILSTACK_SMTP_HOST=127.0.0.1 MAILSTACK_SMTP_PORT=%q\n' "$MAILSTACK_SMTP_PORT"
  printf 'export MAILSTACK_SUBMISSION_PORT=%q\n' "$MAILSTACK_SUBMISSION_PORT"
  printf 'export MAILSTACK_IMAP_HOST=127.0.0.1 MAILSTACK_IMAP_PORT=%q\n' "$MAILSTACK_IMAP_PORT"
  printf 'export MAILSTACK_IMAPS_PORT=%q\n' "$MAILSTACK_IMAPS_PORT"
  printf 'export MAILSTACK_LMTP_PORT=%q\n' "$MAILSTACK_LMTP_PORT"
  printf 'export MAILSTACK_CA_CERT=%q\n' "$D/certs/ca.pem"
  printf 'export MAILSTACK_USERS=%q\n' "$MAILSTACK_USERS"
  printf 'export MAILSTACK_AUTHSERV_ID=%q\n' "mail.$DOMAIN"
}

stop() {
  # SIGTERM both masters at once (Postfix's master takes 1 s to wind down), SIGKILL after 10 s.
  trap - ERR
  local name pid pids=() i port
  for name in postfix dovecot; do
    if running "$name"; then
      pid=$(cat "$D/$name.pid")
      kill -TERM "$pid" 2>/dev/null && pids+=("$pid")
    fi
    rm -f "$D/$name.pid"
  done
  for pid in "${pids[@]}"; do
    for ((i = 0; i < 200; i++)); do
      alive "$pid" || break
      sleep 0.05
    done
    # anything left in the master's process group (see setsid above) goes too
    kill -KILL -- "-$pid" 2>/dev/null || true
  done
  # wait until the listening sockets (shared with the children) are gone
  for port in "${PORTS[@]}"; do
    for ((i = 0; i < 100; i++)); do
      listening "$port" || break
      sleep 0.05
    done
  done
  if [[ ${CLEAN:-0} == 1 ]]; then rm -rf "$D"; fi
  return 0
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
