#!/usr/bin/env python3
"""Write a new migration from the difference between the models and the schema.

  .venv/bin/python scripts/new_migration.py "seat colours"

A scratch SQLite database is brought to the newest revision, alembic's
autogenerate compares it with the models (pbem/store.py) and writes
pbem/migrations/versions/NNNN_<message>.py with the next number. Review it (renames
come out as a drop and an add; SQLite-only quirks; server defaults for new NOT NULL
columns so existing rows upgrade), set `HEAD` in pbem/schema.py to the new number,
and run tests/pbem/test_schema.py (and tests/integration/test_schema_postgres.py).
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

from alembic import command

from pbem import schema
from pbem.store import Store


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not argv[0].strip():
        print(__doc__, file=sys.stderr)
        return 2
    message = argv[0].strip()
    number = f"{int(schema.HEAD) + 1:04d}"
    slug = re.sub(r"[^a-z0-9]+", "_", message.lower()).strip("_")
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'scratch.sqlite'}")
        store.create_all()
        with store.engine.connect() as conn:
            cfg = schema.alembic_config(conn)
            cfg.set_main_option("file_template", f"%%(rev)s_{slug}")
            script = command.revision(cfg, message=message, autogenerate=True, rev_id=number)
        store.dispose()
    path = getattr(script, "path", None)
    print(f"wrote {path}; review it, then set HEAD = {number!r} in pbem/schema.py")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
