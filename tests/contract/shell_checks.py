"""The contract of a game's presenter (`pbem.presenter.Presenter`), as plain functions.

At every step of a random playout (`checks.play`), every seat's status mail and private
mail, and the public notice and text board, are rendered as the moderator renders them
(`pbem.outbound.Renderer` with the game's template folder, the presenter's words for
the events redacted for the reader). Nothing may fail to render, and a seat's mail may
hold none of the values that redaction hides from it (`checks.hidden_strings`).
"""

from __future__ import annotations

import dataclasses
import html
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.outbound import Renderer, status_context

from .checks import Playout, hidden_strings, strings

GAME_ID = "contract-1"
_WORD = re.compile(r"[^\W_]+(?:-[^\W_]+)*")
_TAG = re.compile(r"<[^>]+>")


@dataclasses.dataclass(frozen=True, slots=True)
class Mail:
    """A rendered mail: who reads it (None: the public), at which version, its text."""

    viewer: int | None
    version: int
    kind: str
    subject: str
    text: str
    html: str

    def words(self) -> set[str]:
        """Every word of the subject and both bodies (the HTML without its tags)."""
        body = html.unescape(_TAG.sub(" ", self.html))
        return set(_WORD.findall(" ".join((self.subject, self.text, body))))


def ints(obj: Any) -> set[str]:
    """Every integer in a tree of dataclasses, sequences and mappings, as text."""
    out: set[str] = set()
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, bool) or o is None or isinstance(o, str | float):
            continue
        if isinstance(o, int):
            out.add(str(o))
        elif dataclasses.is_dataclass(o) and not isinstance(o, type):
            stack.extend(getattr(o, f.name) for f in dataclasses.fields(o))
        elif isinstance(o, Mapping):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, tuple | list | set | frozenset):
            stack.extend(o)
    return out


def _render(renderer: Renderer, presenter: Any, template: str, ctx: dict[str, Any],
            where: str) -> tuple[str, str]:
    try:
        text, body = renderer.render(template, ctx, presenter.template_dir)
    except Exception as e:  # a missing name, a template error: the check fails
        raise AssertionError(f"{presenter.name}: {template} for {where} does not render: "
                             f"{type(e).__name__}: {e}") from e
    assert text.strip() and body.strip(), f"{presenter.name}: {template} for {where} is empty"
    return text, body


def mails(p: Playout, presenter: Any, renderer: Renderer | None = None) -> list[Mail]:
    """Every mail of a playout, rendered: after the first event and after each move,
    each seat's status mail (what changed, its view, its legal commands) and private
    mail (the private news it alone learnt), and the public notice and text board."""
    renderer = renderer or Renderer()
    game = p.game
    names = p.final.names
    seats = range(len(names))
    out: list[Mail] = []
    for state, batch in zip(p.states, ((p.first,), *p.batches), strict=True):
        where = f"v{state.version}"
        for seat in seats:
            view = game.view(state, seat)
            shown = [game.redact(e, seat) for e in batch]
            cmds = game.legal_commands(state, seat)
            ctx = status_context(
                view, game_id=GAME_ID, echo=(), deadline=None, tz="UTC",
                changes=[presenter.describe_event(e, names, seat) for e in shown],
                legal=presenter.summarise_commands(cmds, view), presenter=presenter)
            subject = presenter.headline(view, names[seat])
            text, body = _render(renderer, presenter, "status", ctx, f"seat {seat} at {where}")
            out.append(Mail(seat, state.version, "status", subject, text, body))
            news = [e for e in batch
                    if presenter.private_news(e) and getattr(e, "seat", None) == seat]
            if news:
                ctx = {"game_id": GAME_ID, "name": names[seat], "version": state.version,
                       "lines": [presenter.describe_event(e, names, seat) for e in news],
                       "legal": presenter.summarise_commands(cmds, view)}
                text, body = _render(renderer, presenter, "private", ctx,
                                     f"seat {seat} at {where}")
                out.append(Mail(seat, state.version, "private", "", text, body))
        public = game.view(state, None)
        lines = [presenter.describe_event(game.redact(e, None), names, None) for e in batch]
        ctx = {"game_id": GAME_ID, "title": presenter.headline(public, None), "lines": lines,
               "turn_line": presenter.turn_line(public, None), "deadline_utc": "",
               "deadline_local": "", "version": state.version, "position": where}
        text, body = _render(renderer, presenter, "notice", ctx, f"the public at {where}")
        board = presenter.render_text(public)
        assert board.strip(), f"{presenter.name}: an empty text board at {where}"
        json.dumps(presenter.view_to_json(public))
        out.append(Mail(None, state.version, "notice", ctx["title"], text + board, body))
    return out


def check_mails_render(p: Playout, presenter: Any, rendered: Sequence[Mail]) -> None:
    """Every view of a playout rendered (`mails`: each seat's and the public's, at
    every step); the referee's full view renders as text and JSON too."""
    assert len({m.version for m in rendered}) == len(p.states)
    seats = len(p.final.names)
    assert sum(m.kind == "status" for m in rendered) == seats * len(p.states)
    for state in (p.states[0], p.final):
        full = presenter.full_view(state)
        assert presenter.render_text(full).strip()
        json.dumps(presenter.view_to_json(full))
    for seat in range(len(p.final.names)):
        cmds = p.game.legal_commands(p.states[0], seat)
        assert all(isinstance(line, str) for line in presenter.summarise_commands(cmds))


def check_mails_hide(p: Playout, presenter: Any, rendered: Sequence[Mail]) -> None:
    """No mail to a seat (nor a public one) holds a word that only lies in other seats'
    private events so far, unless the reader has seen it since (the rule
    `checks.check_views` keeps for views), now rendered as words of the mail.

    A hidden value that is a number (a card worth 7) is only found where no number
    the reader may see (in its view, the events it reads, its commands) is the same:
    the mail's numbers are not told apart by what they count."""
    game = p.game
    viewers: list[int | None] = [None, *range(len(p.final.names))]
    hidden: dict[int | None, set[str]] = {v: set() for v in viewers}
    known: dict[int | None, set[str]] = {v: strings(p.first) for v in viewers}
    by_step: dict[tuple[int, int | None], list[Mail]] = {}
    for m in rendered:
        by_step.setdefault((m.version, m.viewer), []).append(m)
    checked = 0
    for state, batch in zip(p.states, ((), *p.batches), strict=True):
        for e in batch:
            for v in viewers:
                hidden[v] |= hidden_strings(game, e, v)
                known[v] |= strings(game.redact(e, v))
        for v in viewers:
            secret = hidden[v] - known[v] - {"?"}
            if not secret:
                continue
            seen = [game.view(state, v), [game.redact(e, v) for e in batch]]
            if v is not None:
                seen.append(game.legal_commands(state, v))
            told = ints(seen)
            for m in by_step[(state.version, v)]:
                leaked = {w for w in secret & m.words() if w not in told}
                assert not leaked, (f"{presenter.name}: the {m.kind} mail to "
                                    f"{'the public' if v is None else f'seat {v}'} at "
                                    f"v{state.version} shows hidden {sorted(leaked)}")
                checked += 1
    assert checked, f"{presenter.name}: no mail was checked against a hidden value"


def check_presenter_contract(p: Playout, presenter: Any) -> None:
    """Every shell item of the contract, for one playout."""
    rendered = mails(p, presenter)
    check_mails_render(p, presenter, rendered)
    check_mails_hide(p, presenter, rendered)
