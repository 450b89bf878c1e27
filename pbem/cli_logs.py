"""Commands of the `pbem` command line (registered by `pbem.cli`)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
