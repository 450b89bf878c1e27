"""Playing a mail: its command lines decided one by one through the match driver
(`engine.match.Match`), the seeded chance each one causes, and what the undo
protocol tells everyone.

Whatever the game: the rules come from `engine.protocol.Game`, the words from the
game's grammar (`notation.registry`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.consent import Agree, Refuse, Reverted, Undo
from engine.errors import GameError, IllegalMoveError, NotationError
from engine.match import Match, fold
from engine.protocol import CHANCE
from engine.registry import get_game
from engine.undo import START, Last, Tracker
from engine.undo import play as play_command
from notation.registry import grammar_for

from .i18n import Said, gettext, said, tr
from .presenter import Presenter, chance_noun
from .registry import presenter_for
from .replies import Line

UNDO_VERBS = ("undo", "agree", "refuse")


class CommandFailed(Exception):
    """A command line of a mail that cannot be applied: the line and the game error
    (and, for a stale mail, what changed since the version it was written against)."""

    def __init__(self, line: Line | None, error: GameError,
                 changes: Sequence[str] = ()) -> None:
        super().__init__(error.message)
        self.line = line
        self.error = error
        self.changes = list(changes)


@dataclass
class Played:
    """Commands decided through a match: its state and tracker after them, the events
    (`match.events`, only the new ones), the moves (seat, canonical command, the
    version it was given at), and the notices the undo protocol's commands cause."""

    match: Match
    grammar: Any  # the game's notation.registry grammar
    moves: list[tuple[int, str, int]] = field(default_factory=list)
    echo: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)  # the mail's lines not read as commands
    notices: list[Said] = field(default_factory=list)  # said to every seat in its language

    @classmethod
    def on(cls, game: Any, grammar: Any, state: Any, *, seed: str | None,
           tracker: Tracker = START, events: Sequence[Any] = ()) -> Played:
        """Commands about to be played on `state` (`events`: any already made, such as
        a new game's first)."""
        return cls(Match(game, state, list(events), tracker=tracker, seed=seed), grammar)

    @property
    def state(self) -> Any:
        return self.match.state

    @property
    def events(self) -> list[Any]:
        return self.match.events

    @property
    def tracker(self) -> Tracker:
        return self.match.tracker

    def play(self, seat: int, cmd: Any) -> list[Any]:
        """Decide one command (the undo protocol's included) on the evolving state.

        Raises:
            IllegalMoveError: the command is refused; nothing changes.
        """
        before, tracker = self.match.state, self.match.tracker
        events = self.match.play(seat, cmd)
        self.moves.append((seat, self.grammar.format_command(cmd), before.version))
        if seat != CHANCE:
            notice = undo_notice(self.grammar, before.names, tracker, self.match.tracker,
                                 seat, cmd)
            if notice:
                self.notices.append(notice)
        return events

    def resolve_chance(self) -> list[Any]:
        """Play the seeded chance that is due (deals, draws, rolls): its events."""
        start, match = len(self.events), self.match
        while match.chance_due():
            self.play(CHANCE, match.seeded_command())
        return self.events[start:]


def undo_notice(grammar: Any, names: Sequence[str], before: Tracker, after: Tracker,
                seat: int, cmd: Any) -> Said | None:
    """What every player is told about the undo protocol after `cmd` by `seat` (in
    each one's language: `pbem.i18n.Said`)."""
    who = names[seat]
    if isinstance(cmd, Undo):
        assert after.last is not None and after.request is not None
        waiting = ", ".join(names[s] for s in after.waiting_for(len(names)))
        text = grammar.format_command(after.last.command)
        return said("%(who)s asks to take back their last command, '%(command)s' (back to "
                    "v%(version)s). %(waiting)s: reply 'agree' or 'refuse'. The undo is made "
                    "when all agree; one 'refuse', or any other move, cancels it.",
                    who=who, command=text, version=after.request.to_version, waiting=waiting)
    request = before.request
    if request is None:
        return None
    asker = names[request.seat]
    if isinstance(cmd, Agree):
        if after.request is None:
            assert before.last is not None
            return said("Everyone agreed: %(asker)s's '%(command)s' is taken back; the game "
                        "is back at the position of v%(version)s.", asker=asker,
                        command=grammar.format_command(before.last.command),
                        version=request.to_version)
        waiting = ", ".join(names[s] for s in after.waiting_for(len(names)))
        return said("%(who)s agrees to %(asker)s's undo; still waiting for: %(waiting)s.",
                    who=who, asker=asker, waiting=waiting)
    if isinstance(cmd, Refuse):
        if seat == request.seat:
            return said("%(who)s withdrew their undo request.", who=who)
        return said("%(who)s refused %(asker)s's undo; it is cancelled.", who=who, asker=asker)
    return said("%(asker)s's undo request was cancelled by %(who)s's move.", asker=asker,
                who=who)


def undo_line(grammar: Any, names: Sequence[str], tracker: Tracker, viewer: int) -> str:
    """The status mail's line about a pending undo request ("" if none), in the
    current language (`pbem.i18n`)."""
    request = tracker.request
    if request is None or tracker.last is None:
        return ""
    waiting = tracker.waiting_for(len(names))
    values = {"command": grammar.format_command(tracker.last.command),
              "version": request.to_version,
              "waiting": ", ".join(names[s] for s in waiting)}
    if request.seat == viewer:
        text = tr("Undo asked: You asked to take back '%(command)s' (back to v%(version)s); "
                  "waiting for %(waiting)s.", **values)
    else:
        text = tr("Undo asked: %(asker)s asked to take back '%(command)s' (back to "
                  "v%(version)s); waiting for %(waiting)s.", asker=names[request.seat],
                  **values)
    if viewer in waiting:
        text += " " + gettext("Reply 'agree' or 'refuse'.")
    return text


def play_lines(state: Any, seat: int, lines: Sequence[Line], seed: str,
               tracker: Tracker = START, *, game: Any = None) -> Played:
    """`play_mail` on `state` of `game` (None: the default game), with its grammar
    and presenter (`tracker`: the undo protocol's, before the mail).

    Raises:
        CommandFailed: the first line that does not parse or is illegal.
    """
    game = game or get_game()
    played = Played.on(game, grammar_for(game.name), state, seed=seed, tracker=tracker)
    return play_mail(played, seat, lines, presenter_for(game.name))


def play_mail(played: Played, seat: int, lines: Sequence[Line],
              presenter: Presenter) -> Played:
    """Parse and decide the lines of one mail together, on the evolving state, each
    followed by the seeded chance it causes.

    A command that makes chance tell its seat something new in secret (a draw:
    `Presenter.private_news`) ends what one mail may hold: the sender has not seen
    it yet, so commands after it are refused (and never decided, so the reply cannot
    reveal the draw).

    Raises:
        CommandFailed: the first line that does not parse or is illegal.
    """
    names = played.state.names
    grammar = played.grammar
    drew_after: Line | None = None
    for line in lines:
        if drew_after is not None:
            raise CommandFailed(line, IllegalMoveError(
                f"this line comes after {drew_after.text!r}, which draws "
                f"{chance_noun(presenter)} you have not seen yet; send it again in a new "
                "mail once you have read your draw",
                "after-draw"))
        try:
            cmd = grammar.parse_command(line.text, players=names)
        except NotationError as e:
            raise CommandFailed(line, e) from None
        try:
            played.play(seat, cmd)
        except IllegalMoveError as e:
            raise CommandFailed(line, e) from None
        played.echo.append(grammar.format_command(cmd))
        if any(presenter.private_news(e) for e in played.resolve_chance()):
            drew_after = line
    return played


def rebuild_tracker(game: Any, grammar: Any, events: Sequence[Any], state: Any,
                    tail: Sequence[tuple[int, str, int]]) -> Tracker:
    """The undo protocol's tracker, from the stored moves (seat, command, version)
    since the last player command that is not the undo protocol's, oldest first.

    The events are the record of what the commands did: the last command's are the
    events since its version, unless an undo was made since (then nothing is left to
    take back).
    """
    if not tail or tail[0][0] == CHANCE or tail[0][1] in UNDO_VERBS:
        return START
    seat, command, version = tail[0]
    since = events[version:]
    if any(isinstance(e, Reverted) for e in since):
        return START
    names = state.names
    tracker = Tracker(Last(seat, fold(game, events[:version]),
                           grammar.parse_command(command, players=names), tuple(since)))
    for seat, command, _ in tail[1:]:
        if seat != CHANCE:
            _, _, tracker = play_command(game, state, tracker, seat,
                                         grammar.parse_command(command, players=names))
    return tracker
