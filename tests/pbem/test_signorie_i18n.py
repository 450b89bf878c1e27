"""Signorie's own words in Dutch and Greek (domain `signorie`, pbem/signorie/locale):
whole self-played games of 2, 3 and 4 players, their event lines and status mails in
every language. Every line of an event fits a text mail (78 characters after the
mail's `  - `); every message a Dutch or Greek status mail looks up has a
translation, and no English sentence of Signorie's is left in it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from html import unescape
from typing import Any

import pytest

from engine.selfplay import Playout, play_random
from engine.signorie.definition import GAME
from engine.signorie.events import DieTaken, GameEnded, Passed
from pbem.i18n import LANGUAGES, catalogue, game_catalogues, speaking
from pbem.outbound import Renderer, status_context
from pbem.registry import presenter_for
from pbem.signorie.tables import _EFFECTS, text_key
from pbem.signorie.terms import NAMES, name

PRESENTER = presenter_for("signorie")
GAMES = [(2, 0), (3, 1), (4, 2)]
EVERY = 60  # a status mail per seat every this many events (and at the end)


@cache
def playout(n: int, seed: int) -> Playout:
    return play_random(GAME, n, f"signorie-{seed}")


def states(p: Playout) -> Iterator[tuple[int, Any]]:
    """(index of the event, state after it) for every event of a game."""
    state = GAME.new_state(p.events[0])
    yield 0, state
    for i, e in enumerate(p.events[1:], 1):
        state = GAME.evolve(state, e)
        yield i, state


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_line_fits_a_text_mail(lang: str) -> None:
    longest = 0
    with speaking(lang, PRESENTER):
        for n, seed in GAMES:
            p = playout(n, seed)
            for e in p.events:
                for viewer in (None, *range(n)):
                    text = PRESENTER.describe_event(GAME.redact(e, viewer), p.players, viewer)
                    first, *more = text.split("\n")
                    assert len("  - " + first) <= 78, text
                    assert all(len(ln) <= 78 and ln.startswith("    ") for ln in more), text
                    longest = max(longest, len(text))
    assert longest > 78  # the final scoring and the task tiles need several lines


def test_a_long_event_breaks_between_names_not_inside_them() -> None:
    p = playout(4, 2)
    with speaking("nl", PRESENTER):
        lines = [PRESENTER.describe_event(e, p.players, 0) for e in p.events]
    tasks = next(t for t in lines if t.startswith("opdrachttegels"))
    starts = [ln.split(" (")[0].strip() for ln in tasks.split("\n")[1:]]
    assert {"geel", "rood", "paars", "grijs", "turkoois"} <= set(starts)  # a colour a line
    for ln in tasks.split("\n"):  # a name and its notation word stay on one line
        assert ln.count("(") == ln.count(")"), tasks
    final = lines[-1].split("\n")
    assert final[0] == "eindtelling:" and final[1].startswith("    jij: ")
    assert final[-1].startswith("    gewonnen door ")


def _mails(lang: str) -> Iterator[tuple[str, str]]:
    """Status mails (text, html) of every seat through whole games, in `lang`."""
    renderer = Renderer()
    for n, seed in GAMES:
        p = playout(n, seed)
        last = len(p.events) - 1
        for i, state in states(p):
            if i % EVERY and i != last:
                continue
            for seat in range(n):
                view = GAME.view(state, seat)
                news = p.events[max(0, i - EVERY) + 1:i + 1]
                with speaking(lang, PRESENTER):
                    changes = [PRESENTER.describe_event(GAME.redact(e, seat), p.players, seat)
                               for e in news]
                    legal = PRESENTER.summarise_commands(GAME.legal_commands(state, seat), view)
                    ctx = status_context(view, game_id="sig-9", changes=changes, echo=(),
                                         legal=legal, deadline=None, tz="UTC",
                                         presenter=PRESENTER)
                    yield renderer.render("status", ctx, PRESENTER.template_dir)


@pytest.mark.parametrize("lang", ["nl", "el"])
def test_every_message_a_status_mail_looks_up_is_translated(
        lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    cat: Any = catalogue(lang, game_catalogues(PRESENTER))
    looked: set[Any] = set()

    def spy(method: str, key: Any) -> Any:
        real = getattr(cat, method)

        def call(*args: Any) -> Any:
            looked.add(key(*args))
            return real(*args)
        return call

    monkeypatch.setattr(cat, "gettext", spy("gettext", lambda m: m))
    monkeypatch.setattr(cat, "ngettext", spy("ngettext", lambda s, p, n: (s, 0)))
    monkeypatch.setattr(cat, "pgettext", spy("pgettext", lambda c, m: f"{c}\x04{m}"))
    for _text, _html in _mails(lang):
        pass
    assert len(looked) > 100
    assert {k for k in looked if k not in cat._catalog} == set()


ENGLISH = {"the", "took", "your", "you", "and", "from", "free", "none", "round",
           "turn", "board", "dice", "scored", "married", "sent", "beside", "tile", "tiles",
           "available", "supply", "players", "rewards", "cities", "waiting", "passed",
           "wins", "won", "for", "to", "by", "figure", "figures", "space", "hire",
           "rolled", "gained", "hired", "face-down", "ended", "threshold", "florins", "vp"}
"""Words of Signorie's English sentences no Dutch or Greek line of ours holds."""


def _words(text: str) -> set[str]:
    """The words of a status mail's text part that are ours to translate: not the
    footer, not the commands, not the notation's words in parentheses."""
    ours = text.partition("\n-- \n")[0]
    ours = re.sub(r"\n(Je opdrachten nu|Οι εντολές σου τώρα):\n(  .*\n)*", "\n", ours)
    ours = re.sub(r"\([a-z-]+\)", "", ours)  # "rood (red)"
    return set(re.findall(r"[^\W\d_][\w-]*", ours.lower()))


BOARD_ENGLISH = (ENGLISH | {
    "colour", "column", "city", "wives", "diplomats", "reward", "legend", "key", "rank",
    "sons", "sum", "victory", "points", "nobody", "instead", "face", "its", "else", "cost",
    "beside", "tasks", "top", "first", "value", "general", "political", "ecclesiastical",
    "military", "initiative", "marriage", "yellow", "red", "purple", "grey", "turquoise",
    "blue", "mission", "alliance", "bonus"}) - {"die", "plan", "helper", "vp"}
"""The English words of the board's tables and legend (and its bare names; a
name shows as the reader's word with the notation's in parentheses). "die", "plan"
and "helper" are Dutch words too; VP is a letter the cells keep."""

# What the board's cells show alike in every language: a helper's effect
# (tables.effect_code), its cost, H for a hired one.
_CODE = re.compile("^(?:H|\\d+ fl|" + "|".join(
    re.escape(c).replace(r"\{a\}", r"\d+").replace(r"\{t\}", "[a-z]+")
    for c in _EFFECTS.values()) + ")$")


def _board(html: str) -> str:
    """The board section of a status mail's HTML part: its heading, the tables and
    the legend."""
    first = html.index('<p style="margin:10px 0 4px 0">')
    return html[html.rindex("<h3", 0, first):html.index("<h3", first)]


def _board_words(html: str) -> set[str]:
    """The words of the board's tables and legend that are ours to translate: not
    the helpers' effect codes (the legend keeps their letters), not the notation's
    words in parentheses."""
    text = unescape(re.sub(r"<[^>]+>", "\n", _board(html)))
    lines = [ln.strip() for ln in text.split("\n")]
    ours = "\n".join(ln for ln in lines if not _CODE.match(ln))
    ours = re.sub(r"\([a-z-]+\)", "", ours)  # "rood (red)"
    return set(re.findall(r"[^\W\d_][\w-]*", ours.lower()))


@pytest.mark.parametrize("lang", ["nl", "el"])
def test_no_english_sentence_is_left_in_a_status_mail(lang: str) -> None:
    seen = 0
    for text, html in _mails(lang):
        assert _words(text) & ENGLISH == set(), text
        assert _board_words(html) & BOARD_ENGLISH == set(), _board(html)
        rest = html.replace(_board(html), "")  # the board's cells keep "+2 VP"
        for title in ("Since your last mail", "Your commands now", "Your board", "Players",
                      "Dice on offer", "Turn order", " VP"):
            assert title not in rest, title
        seen += 1
    assert seen > 20
    english = [(text, html) for text, html in _mails("en")][-1]
    assert _words(english[0]) & ENGLISH  # the check would see English
    assert _board_words(english[1]) & BOARD_ENGLISH


@pytest.mark.parametrize("lang", ["nl", "el"])
def test_the_board_speaks_the_readers_language(lang: str) -> None:
    html = next(h for _t, h in _mails(lang) if "cities-" in h or "figures-" in h)
    words = _board_words(html)
    if lang == "nl":
        assert {"kleur", "kolom", "reeks", "stad", "huwelijken", "legende", "geel",
                "overwinningspunten", "florijnen", "rang"} <= words
        assert "Steden (waarde van het veld, figuur)" in html
        assert "Y geel (yellow)" in html and "[A] (spelersbord geel (yellow))" in html
    else:
        assert {"χρώμα", "στήλη", "σειρά", "πόλη", "γάμοι", "υπόμνημα", "κίτρινο",
                "φιορίνια", "βαθμός"} <= words
        assert "Μιλάνο (milano)" in html and "ΠΝ, βαθμός" in html
    # the legend keeps the letters the cells show and says them in words
    assert "fig" in words and "fl" in words and "vp" in words
    assert "pol" in words and "ini" in words


def test_key_lines_in_dutch_and_greek() -> None:
    p = playout(3, 1)
    with speaking("nl", PRESENTER):
        assert name("red") == "rood (red)" and name("ecclesiastical") == \
            "kerkelijk (ecclesiastical)"
        assert name("sforza5") == "sforza5"  # a family's tile: the notation's id
        assert PRESENTER.describe_event(p.events[-1], p.players, None).startswith(
            "eindtelling:\n    anna: ")
    ended = GameEnded(((0, "military", "sforza5"),), (4, 1), (9, 0), (0,))
    with speaking("nl", PRESENTER):
        assert PRESENTER.describe_event(ended, ("anna", "bas"), 0).split("\n") == [
            "eindtelling:",
            "    jij: 4 OP voor figuren op de carrièresporen, 9 OP voor de reeksen;",
            "        gesloten tegels: sforza5 naast de reeks militair (military)",
            "    bas: 1 OP voor figuren op de carrièresporen, 0 OP voor de reeksen",
            "    gewonnen door jou"]
        assert PRESENTER.describe_event(DieTaken(1, "red", 3, 2, False), ("anna", "bas"), 0) \
            == "bas nam de rood (red) 3 voor 2 florijnen"
    with speaking("el", PRESENTER):
        assert name("threshold") == "κατώφλι (threshold)" and name("roma") == "Ρώμη (roma)"
        assert PRESENTER.describe_event(Passed(0, False), ("anna", "bas"), 0) == "εσύ: πάσο"
    text = next(t for t, _h in _mails("nl") if "Beschikbare dobbelstenen" in t)
    for shown in ("Beschikbare dobbelstenen (jouw kosten):", "Opdrachten (tegel, figuren",
                  "Jouw spelersbord:", "Carrièresporen en initiatief:", "Spelersvolgorde:",
                  "in de Algemene Voorraad"):
        assert shown in text, shown
    text = next(t for t, _h in _mails("el") if "Διαθέσιμα ζάρια" in t)
    for shown in ("Διαθέσιμα ζάρια (το δικό σου κόστος):", "Το ταμπλό σου:",
                  "Σταδιοδρομίες και πρωτοβουλία:", "στο Γενικό Απόθεμα"):
        assert shown in text, shown


def test_every_name_has_its_notation_word_beside_it() -> None:
    for lang in ("nl", "el"):
        with speaking(lang, PRESENTER):
            for word in NAMES:
                shown = name(word)
                assert shown == word or shown.endswith(f" ({word})"), (lang, word, shown)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("width", [30, 45, 76])
def test_the_text_key_keeps_each_mark_beside_its_word(language: str, width: int) -> None:
    """A wrapped key never ends a line on a lone mark ("m", "N", "α"), whatever the width."""
    with speaking(language, PRESENTER):
        lines = text_key(width)
    assert all(len(line) <= width for line in lines)
    stranded = [line for line in lines if re.search(r"(^|\s)\S{1,3}$", line)]
    assert stranded == [], stranded
