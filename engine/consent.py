"""The words of undo by consent, shared by every game: the commands `undo`, `agree`
and `refuse`, and the `Reverted` event an agreed undo records (`engine.undo` holds the
protocol; each game's command and event types include these).
"""

from __future__ import annotations

from typing import ClassVar

from .frozen import dataclass, quick_init


@dataclass(frozen=True, slots=True)
class Undo:
    """Ask to take back your own last command (only while nobody has moved since);
    every other player must `agree` (see `engine.undo`)."""

    verb: ClassVar[str] = "undo"


@dataclass(frozen=True, slots=True)
class Agree:
    """Agree to the undo another player asked for."""

    verb: ClassVar[str] = "agree"


@dataclass(frozen=True, slots=True)
class Refuse:
    """Refuse the undo another player asked for (or withdraw your own request)."""

    verb: ClassVar[str] = "refuse"


UndoCommand = Undo | Agree | Refuse


@quick_init
@dataclass(frozen=True, slots=True)
class Reverted:
    """An undo agreed by every player: the game goes back to `to_version`.

    The events in between stay in the log; they just no longer count.
    """

    seat: int  # who asked
    to_version: int
    private: ClassVar[bool] = False
    version: ClassVar[int] = 1
