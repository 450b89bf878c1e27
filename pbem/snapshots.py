"""State snapshots: a game's state and undo tracker after its last commit, stored with
the game (`store.Snapshot`, one row a game), so a process that starts cold (a
`pbem poll --once` from cron, a restarted worker) loads them instead of replaying
the game and then replaying it again up to the last command for the tracker.

A snapshot is a cache, never the record: the events are. It is used only when it
shows the game's version and was written by the same engine (`engine_stamp`: the
engine's version and a digest of the engine's and the game's sources), and when it
reads back; anything else means a replay, with the same result. The data is a
pickle, written and read only by the moderator in its own database; a read-only
mapping in a game's state (`types.MappingProxyType`, which plain pickle refuses) is
pickled as the mapping it shows and read back read-only.
"""

from __future__ import annotations

import copyreg
import hashlib
import io
import logging
import pickle
import sys
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from sqlalchemy import bindparam, func, insert, update
from sqlmodel import Session, col, select

from engine import __version__ as ENGINE_VERSION
from engine.undo import Tracker

from .store import EventRow, Game, MoveRow, Snapshot, known_head, moves_added

log = logging.getLogger(__name__)

_ENGINE_DIR = Path(sys.modules["engine"].__file__ or ".").resolve().parent


@cache
def _sources_digest(folders: tuple[Path, ...]) -> str:
    h = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            h.update(str(path.relative_to(folder)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def engine_stamp(game: Any) -> str:
    """The game and the code a state of it was made by: its name, the engine's
    version, and a digest of the engine's sources and the game's own package."""
    return _stamp(type(game), game.name)


@cache
def _stamp(kind: type, name: str) -> str:
    module = sys.modules.get(kind.__module__)
    folders = [_ENGINE_DIR]
    if module is not None and module.__file__:
        own = Path(module.__file__).resolve().parent
        if not own.is_relative_to(_ENGINE_DIR):
            folders.append(own)
    return f"{name}:{ENGINE_VERSION}:{_sources_digest(tuple(folders))}"


def read_only(mapping: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    """A read-only mapping again, from the mapping it showed (what unpickling calls)."""
    return MappingProxyType(mapping)


def _read_only(mapping: MappingProxyType[Any, Any]) -> tuple[Any, tuple[dict[Any, Any]]]:
    return read_only, (dict(mapping),)


_DISPATCH = {**copyreg.dispatch_table, MappingProxyType: _read_only}


def dumps(obj: Any) -> bytes:
    """`pickle.dumps`, read-only mappings included."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _DISPATCH
    pickler.dump(obj)
    return out.getvalue()


_TABLE = Snapshot.__table__
_REPLACE = update(_TABLE).where(_TABLE.c.game_id == bindparam("b_game_id"))
_ADD = insert(_TABLE)


def save(s: Session, row: Game, game: Any, state: Any, tracker: Tracker,
         moves: int) -> None:
    """Store the game's state at `row.version`, with `moves` commands stored and the
    undo protocol's `tracker`, in the session of the commit that made it."""
    values = {"version": row.version, "moves": moves, "engine": engine_stamp(game),
              "data": dumps((state, tracker))}
    if s.connection().execute(_REPLACE, {"b_game_id": row.id, **values}).rowcount == 0:
        s.connection().execute(_ADD, {"game_id": row.id, **values})  # the game's first


def restore(s: Session, row: Game, game: Any) -> tuple[Any, Tracker, int] | None:
    """The state at `row.version`, the tracker and the number of commands it goes
    with, from the game's snapshot; None when there is none that fits (then the game
    is replayed)."""
    stored = select(func.count()).select_from(MoveRow).where(MoveRow.game_id == row.id)
    found = s.exec(select(Snapshot, EventRow.hash, stored.scalar_subquery()).outerjoin(
        EventRow, (col(EventRow.game_id) == col(Snapshot.game_id))
        & (col(EventRow.seq) == col(Snapshot.version) - 1))
        .where(Snapshot.game_id == row.id)).first()
    snap = found[0] if found is not None else None
    if found is not None:  # read with it, for the tracker's check and the next commit
        moves_added(s, row.id, int(found[2]))
        if found[1] is not None:
            known_head(s, row.id, found[0].version, found[1])
    if snap is None or snap.version != row.version or snap.engine != engine_stamp(game):
        return None
    try:
        state, tracker = pickle.loads(snap.data)
    except Exception as e:  # an unreadable snapshot is only a cache miss
        log.warning("game %s: snapshot unreadable (%s); replaying", row.id, e)
        return None
    if getattr(state, "version", None) != row.version or not isinstance(tracker, Tracker):
        return None
    return state, tracker, snap.moves
