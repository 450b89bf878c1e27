#!/usr/bin/env bash
# demo.sh - the first command to run: a whole game of The Princes of Florence played by mail
# among scripted players, through the real moderator pipeline, with no server at all (SQLite, and
# folders of .eml files standing in for IMAP and SMTP). The mails are left in ./demo-out to read.
#
#   bash scripts/demo.sh [pbem demo options, e.g. --players 5 --seed 7 --out /tmp/demo]
set -Eeuo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
if [[ ! -x .venv/bin/pbem ]]; then
  echo "demo.sh: creating .venv and installing pbem (once)" >&2
  python3 -m venv .venv
  .venv/bin/pip install -q -e '.[test]'
fi
exec .venv/bin/pbem demo "$@"
