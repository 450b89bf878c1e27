#!/usr/bin/env bash
# test.sh - the project's single test command:  bash scripts/test.sh [pytest args...]
#
#  1. creates .venv if missing and installs the project with its test extras (again only when
#     pyproject.toml or the set of packages changed);
#  2. installs (apt) and starts Postfix + Dovecot + PostgreSQL on loopback, each run with its own
#     state dirs and free ports, so concurrent runs don't collide; stopped again on exit; and
#     installs (apt) Debian's Chromium, which the browser tests (tests/browser) lay mails out in,
#     and notmuch, the mail indexer that judges the threads of a game (tests/golden/test_threads.py);
#  3. runs ruff check ., mypy, then python -m pytest "$@";
#  4. builds the engine's hot modules with mypyc into a second venv (.venv-mypyc: a regular, not
#     editable, install from a copy of the sources, as a user installs pbem, which compiles the
#     core (setup.py), rebuilt only when a source file changed) and
#     runs the differential tests (MYPYC_TESTS below) against that installed compiled build, from
#     a scratch directory so that the source tree is not on the import path; PBEM_EXPECT_COMPILED=1
#     makes tests/engine/test_compiled.py check that the compiled modules are the ones imported.
# Exit status: pytest's if it failed (5 = no tests collected counts as failure), else the compiled
# run's if it failed, else 1 if ruff or mypy failed, else 0.
#
# Environment:
#   PBEM_NO_SERVERS=1  don't install/start servers; the integration tests then skip
#   PBEM_SKIP_LINT=1   skip ruff and mypy (quicker local iterations)
#   PBEM_KEEP_STACK=1  keep the per-run server dirs (configs, logs, Maildirs) after the run
#   PBEM_SKIP_MYPYC=1  skip step 4, the compiled build and its tests (quicker local iterations)
#   PBEM_CHROMIUM=PATH the Chromium the browser tests use (default /usr/bin/chromium, from apt)
# The servers need root (CI runs as root); without root use PBEM_NO_SERVERS=1. Without root and
# without /usr/bin/chromium the browser tests skip, except in CI (CI=true), where they fail; so
# does the threading test without notmuch.
set -Eeuo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

log() { printf '[test.sh] %s\n' "$*" >&2; }
T0=$EPOCHREALTIME
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f s", b - a }'; }

# --- 1. virtualenv ------------------------------------------------------------------------------
ensure_venv() {
  local t=$EPOCHREALTIME stamp
  if [[ ! -x .venv/bin/python ]]; then
    # bare Debian has no python3, or python3 without the venv module (python3-venv)
    if ! python3 -m venv .venv 2>/dev/null; then
      log "python3 -m venv failed; installing python3 + python3-venv with apt"
      rm -rf .venv
      DEBIAN_FRONTEND=noninteractive apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        python3 python3-venv >/dev/null
      python3 -m venv .venv
    fi
    .venv/bin/python -m pip install -q --upgrade pip
  fi
  # reinstall only when the packaging metadata or the set of top-level packages changed
  stamp=$({ cat pyproject.toml; ls -d -- */__init__.py 2>/dev/null; } | sha256sum)
  if [[ $(cat .venv/.pbem-install-stamp 2>/dev/null) != "$stamp" ]]; then
    .venv/bin/python -m pip install -q -e '.[test]'
    echo "$stamp" > .venv/.pbem-install-stamp
  fi
  log "venv ready ($(since "$t"))"
}

# --- 2. servers ---------------------------------------------------------------------------------
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

pick_ports() {  # a random block of 100 ports in 20000-32699 where none of ours is in use
  local try base p
  for ((try = 0; try < 50; try++)); do
    base=$((20000 + RANDOM % 127 * 100))
    for p in 24 25 43 54 87 93; do
      port_open $((base + p)) && continue 2
    done
    export MAILSTACK_LMTP_PORT=$((base + 24)) MAILSTACK_SMTP_PORT=$((base + 25))
    export MAILSTACK_IMAP_PORT=$((base + 43)) MAILSTACK_SUBMISSION_PORT=$((base + 87))
    export MAILSTACK_IMAPS_PORT=$((base + 93)) PGSTACK_PORT=$((base + 54))
    return 0
  done
  log "no free port block found"
  return 1
}

stop_servers() {
  local t=$EPOCHREALTIME clean=1
  [[ ${PBEM_KEEP_STACK:-0} == 1 ]] && clean=0
  CLEAN=$clean bash scripts/services.sh stop || true
  log "servers stopped ($(since "$t"))"
  if (( !clean )); then log "kept $MAILSTACK_DIR and $PGSTACK_DIR"; fi
}

start_servers() {
  local t=$EPOCHREALTIME out
  if [[ $(id -u) != 0 ]]; then
    log "the servers need root; run as root or set PBEM_NO_SERVERS=1"
    return 1
  fi
  bash scripts/services.sh install
  log "server packages ready ($(since "$t"))"

  t=$EPOCHREALTIME
  # Per-run state dirs (parents must be world-traversable: /tmp is). Picking ports and binding them
  # happens under a lock so two runs can't pick the same ports; fd 9 is not passed to the daemons.
  MAILSTACK_DIR=$(mktemp -d /tmp/pbem-mailstack.XXXXXX)
  PGSTACK_DIR=$(mktemp -d /tmp/pbem-pgstack.XXXXXX)
  chmod 755 "$MAILSTACK_DIR"
  export MAILSTACK_DIR PGSTACK_DIR
  trap stop_servers EXIT
  servers_started=1
  exec 9> /tmp/pbem-test-ports.lock
  flock 9
  pick_ports
  # capture first, then eval: eval "$(...)" would hide a failed start
  out=$(bash scripts/services.sh start 9>&-)
  flock -u 9
  exec 9>&-
  eval "$out"
  log "servers started ($(since "$t")): SMTP $MAILSTACK_SMTP_PORT, IMAP $MAILSTACK_IMAP_PORT, PostgreSQL $PGSTACK_PORT"
}

ensure_chromium() {  # Debian's Chromium for tests/browser (never `playwright install`)
  local t=$EPOCHREALTIME
  if [[ -n ${PBEM_CHROMIUM:-} || -x /usr/bin/chromium ]]; then return 0; fi
  if [[ $(id -u) != 0 ]]; then
    log "no /usr/bin/chromium and not root: the browser tests skip (apt-get install chromium)"
    return 0
  fi
  if DEBIAN_FRONTEND=noninteractive apt-get update -qq \
     && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
       chromium >/dev/null; then
    log "chromium installed ($(since "$t"))"
  else
    log "apt-get install chromium failed: the browser tests skip (in CI they fail)"
  fi
}

ensure_notmuch() {  # Debian's notmuch for tests/golden/test_threads.py
  local t=$EPOCHREALTIME
  if command -v notmuch >/dev/null; then return 0; fi
  if [[ $(id -u) != 0 ]]; then
    log "no notmuch and not root: the threading test skips (apt-get install notmuch)"
    return 0
  fi
  if DEBIAN_FRONTEND=noninteractive apt-get update -qq \
     && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
       notmuch >/dev/null; then
    log "notmuch installed ($(since "$t"))"
  else
    log "apt-get install notmuch failed: the threading test skips (in CI it fails)"
  fi
}

# --- 4. the compiled build (mypyc), run after 3 -------------------------------------------------
# The tests that compare results: the in-place fold against the event-sourced one, replays against
# their recorded outcomes, the golden rule cases, and the game contracts; and the build's fallback
# to pure Python when compiling fails (tests/install).
MYPYC_TESTS=(tests/contract tests/engine tests/logs/test_replay_same.py tests/install)
MYPYC_SOURCES=(pyproject.toml setup.py engine notation pbem templates)

mypyc_stamp() {  # every file the compiled install is made of (not caches, not editable builds)
  find "${MYPYC_SOURCES[@]}" -name __pycache__ -prune -o -type f ! -name '*.so' ! -name '*.pyc' \
    -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum
}

ensure_compiler() {  # mypyc's C needs a compiler and the headers of .venv-mypyc's Python
  local include
  include=$(.venv-mypyc/bin/python -c 'import sysconfig; print(sysconfig.get_path("include"))')
  if command -v cc >/dev/null && [[ -f $include/Python.h ]]; then return 0; fi
  if [[ $(id -u) != 0 ]]; then
    log "the compiled build needs a C compiler and $include/Python.h (gcc, python3-dev);" \
      "install them or set PBEM_SKIP_MYPYC=1"
    return 1
  fi
  log "no C compiler or Python.h; installing gcc + python3-dev with apt"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      gcc python3-dev >/dev/null
}

ensure_mypyc_venv() {  # (called where set -e does not apply: every step is checked)
  local t=$EPOCHREALTIME stamp src py=$ROOT/.venv-mypyc/bin/python
  if [[ ! -x $py ]]; then
    python3 -m venv .venv-mypyc && "$py" -m pip install -q --upgrade pip || return 1
  fi
  stamp=$(mypyc_stamp) || return 1
  if [[ $(cat .venv-mypyc/.pbem-install-stamp 2>/dev/null) == "$stamp" ]]; then
    log "compiled venv up to date ($(since "$t"))"
    return 0
  fi
  ensure_compiler || return 1
  rm -f .venv-mypyc/.pbem-install-stamp
  # Installed as a user installs pbem (README, "The compiled core"): pip's isolated build, which
  # fetches mypy, compiles the core, or falls back to pure Python (test_compiled.py then fails).
  # Built from a copy: mypyc's C and setuptools' build/ stay out of the source tree.
  src=$(mktemp -d /tmp/pbem-mypyc-src.XXXXXX) || return 1
  if ! { tar -cf - --exclude=__pycache__ --exclude='*.so' --exclude='*.egg-info' \
           "${MYPYC_SOURCES[@]}" | tar -xf - -C "$src"; } \
     || ! (cd "$src" && env -u PBEM_MYPYC "$py" -m pip install -q ".[test]"); then
    rm -rf "$src"
    return 1
  fi
  rm -rf "$src"
  echo "$stamp" > .venv-mypyc/.pbem-install-stamp
  log "compiled venv built ($(since "$t"))"
}

run_mypyc_tests() {  # the tests, against the installed compiled package; pytest's exit status
  local t=$EPOCHREALTIME dir rc=0
  ensure_mypyc_venv || { log "the compiled build failed"; return 1; }
  t=$EPOCHREALTIME
  # Only `tests` is importable from the scratch dir; --import-mode=append keeps pytest's test
  # folders behind site-packages (tests/pbem is a package too).
  dir=$(mktemp -d /tmp/pbem-mypyc-run.XXXXXX)
  ln -s "$ROOT/tests" "$dir/tests"
  (cd "$dir" && export VIRTUAL_ENV=$ROOT/.venv-mypyc PATH=$ROOT/.venv-mypyc/bin:$PATH \
     && PBEM_EXPECT_COMPILED=1 python -m pytest -q -p no:cacheprovider --import-mode=append \
       "${MYPYC_TESTS[@]}") || rc=$?
  rm -rf "$dir"
  log "compiled build: pytest exited $rc ($(since "$t"))"
  return $rc
}

# make the EXIT trap run on Ctrl-C / kill too
trap 'exit 130' INT
trap 'exit 143' TERM

servers_started=0
ensure_venv
export VIRTUAL_ENV=$ROOT/.venv PATH=$ROOT/.venv/bin:$PATH

if [[ ${PBEM_NO_SERVERS:-0} == 1 ]]; then
  log "PBEM_NO_SERVERS=1: no servers, integration tests will skip"
  unset DATABASE_URL "${!MAILSTACK_@}" "${!PGSTACK_@}"
else
  start_servers
fi
ensure_chromium
ensure_notmuch

# --- 3. lint, types, tests ----------------------------------------------------------------------
lint_rc=0
if [[ ${PBEM_SKIP_LINT:-0} != 1 ]]; then
  t=$EPOCHREALTIME
  ruff check . || lint_rc=1
  mypy || lint_rc=1
  log "ruff + mypy done ($(since "$t"), failed=$lint_rc)"
fi

t=$EPOCHREALTIME
rc=0
python -m pytest "$@" || rc=$?
log "pytest exited $rc ($(since "$t"))"

if (( servers_started )); then
  trap - EXIT
  stop_servers
fi

if [[ ${PBEM_SKIP_MYPYC:-0} == 1 ]]; then
  log "PBEM_SKIP_MYPYC=1: the compiled build is not tested"
else
  mypyc_rc=0
  run_mypyc_tests || mypyc_rc=$?
  (( rc == 0 )) && rc=$mypyc_rc
fi
if (( rc == 0 && lint_rc != 0 )); then
  log "tests passed but ruff/mypy reported problems"
  rc=1
fi
log "total $(since "$T0"), exit $rc"
exit $rc
