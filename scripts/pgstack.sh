#!/usr/bin/env bash
# pgstack.sh - throw-away PostgreSQL cluster on 127.0.0.1:$PGSTACK_PORT with its data in
# $PGSTACK_DIR (unix socket there too). Nothing under /etc is changed; no systemd needed.
#
#   out=$(bash scripts/pgstack.sh start) && eval "$out"   # export DATABASE_URL=postgresql+psycopg://...
#   bash scripts/pgstack.sh stop                          # CLEAN=1 also deletes $PGSTACK_DIR
#
# Must run as root: initdb/pg_ctl refuse to run as root, so they run as the 'postgres' user that
# the Debian package creates. Package: postgresql (see services.sh install).
set -Eeuo pipefail

: "${PGSTACK_DIR:=/tmp/pbem-pgstack}"  # parents must be traversable by 'postgres'
: "${PGSTACK_PORT:=55432}"
: "${PGSTACK_DB:=pbem}"
: "${PGSTACK_USER:=pbem}"
: "${PGSTACK_PASSWORD:=pbem-pw}"

D=$PGSTACK_DIR
PGBIN=$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -1)
if [[ -z $PGBIN ]]; then
  echo "pgstack: no PostgreSQL server under /usr/lib/postgresql (bash scripts/services.sh install)" >&2
  exit 1
fi
as_pg() { runuser -u postgres -- "$@"; }

running() { [[ -f $D/data/postmaster.pid ]] && as_pg "$PGBIN/pg_ctl" -D "$D/data" status >/dev/null 2>&1; }

start() {
  if running; then CLEAN=0 stop; fi  # restart semantics, like mailstack.sh
  mkdir -p "$D"
  chown postgres:postgres "$D"
  chmod 700 "$D"
  if [[ ! -s $D/data/PG_VERSION ]]; then
    # -N: no fsync, fine for throw-away data
    as_pg "$PGBIN/initdb" -D "$D/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
      -E UTF8 --locale=C.UTF-8 -N > "$D/initdb.log" 2>&1 \
      || { echo "pgstack: initdb failed:" >&2; tail -20 "$D/initdb.log" >&2; return 1; }
  fi
  local opts="-c listen_addresses=127.0.0.1 -p $PGSTACK_PORT -k $D"
  opts+=" -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  if ! as_pg "$PGBIN/pg_ctl" -D "$D/data" -l "$D/server.log" -w -t 30 -o "$opts" start >/dev/null; then
    echo "pgstack: server did not start:" >&2
    tail -20 "$D/server.log" >&2
    return 1
  fi
  # role and database for the tests (idempotent)
  as_pg "$PGBIN/psql" -h "$D" -p "$PGSTACK_PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 -qtA \
    > /dev/null <<SQL
SELECT 'CREATE ROLE $PGSTACK_USER LOGIN PASSWORD ''$PGSTACK_PASSWORD'''
 WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$PGSTACK_USER') \gexec
SELECT 'CREATE DATABASE $PGSTACK_DB OWNER $PGSTACK_USER'
 WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$PGSTACK_DB') \gexec
SQL
  printf 'export PGSTACK_DIR=%q PGSTACK_PORT=%q\n' "$D" "$PGSTACK_PORT"
  printf 'export DATABASE_URL=%q\n' \
    "postgresql+psycopg://$PGSTACK_USER:$PGSTACK_PASSWORD@127.0.0.1:$PGSTACK_PORT/$PGSTACK_DB"
}

stop() {
  if [[ -f $D/data/postmaster.pid ]]; then
    # fast = disconnect clients and shut down cleanly; immediate if that hangs
    as_pg "$PGBIN/pg_ctl" -D "$D/data" -m fast -w -t 20 stop >/dev/null 2>&1 \
      || as_pg "$PGBIN/pg_ctl" -D "$D/data" -m immediate -w -t 10 stop >/dev/null 2>&1 \
      || true
  fi
  if [[ ${CLEAN:-0} == 1 ]]; then rm -rf "$D"; fi
  return 0
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
