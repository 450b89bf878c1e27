"""Signorie's board picture in its status mail (issue 14): the position as coloured
HTML tables that read with images blocked (every cell its words; colour never the only
carrier), a legend, a key line in the text part, the inline PNG (multipart/related,
`cid:`) and `pbem show --game signorie --png`. Only what the seat's view holds is drawn:
a face-down alliance tile is a back."""

from __future__ import annotations

import dataclasses
import email
import io
from html.parser import HTMLParser
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from engine.match import fold
from engine.registry import get_game
from engine.selfplay import play_random
from engine.signorie.commands import COLOURS
from engine.signorie.state import State, replace_board
from engine.signorie.views import view_for
from pbem.cli import app
from pbem.i18n import speaking
from pbem.mime import IMAGE_CID
from pbem.outbound import Renderer, status_context
from pbem.registry import presenter_for
from pbem.signorie import picture
from pbem.signorie.tables import BACK, DIE_COLOURS, DIE_LETTERS, marks

from .fakes import NOW, PLAYERS
from .helpers import run
from .signorie_position import position

GAME = get_game("signorie")
PRESENTER = presenter_for("signorie")


class _Tables(HTMLParser):
    """Every table of an HTML text as rows of cells (attributes, text), and whether
    any markup relies on a class or a style sheet."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[tuple[dict[str, str | None], str]]]] = []
        self.cell: tuple[dict[str, str | None], list[str]] | None = None
        self.classes = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.classes |= tag == "style" or any(k == "class" for k, _ in attrs)
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag == "td":
            self.cell = (dict(attrs), [])
        elif tag == "br" and self.cell is not None:
            self.cell[1].append("\n")

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell[1].append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self.cell is not None:
            self.tables[-1][-1].append((self.cell[0], "".join(self.cell[1]).strip()))
            self.cell = None


def _board_part(html: str) -> _Tables:
    """The tables of the mail's board (from its heading to the picture)."""
    part = html.split(">Board</h3>")[1].split("<img")[0].split("<h3")[0]
    parser = _Tables()
    parser.feed(part)
    return parser




def _midgame(players: int, seed: int = 3) -> State:
    events = play_random(GAME, players, seed).events
    return fold(GAME, events[:len(events) // 2])


def _render(view, *, picture: bool = True) -> tuple[str, str]:  # noqa: ANN001
    ctx = status_context(view, game_id="sig-3", changes=[], echo=(), legal=[], deadline=None,
                         tz="UTC", presenter=PRESENTER, picture=picture)
    return Renderer().render("status", ctx, PRESENTER.template_dir)


@pytest.mark.parametrize("state", [position(), _midgame(4)], ids=["by hand", "midgame"])
def test_every_cell_of_the_html_board_has_words_and_the_legend_tells_them(state: State) -> None:
    view = view_for(state, 0)
    _, html = _render(view)
    found = _board_part(html)
    assert not found.classes  # inline styles and attributes only
    *boards, legend = found.tables
    cells = [c for t in boards for row in t for c in row]
    assert len(cells) > 200
    assert all(text for _, text in cells), [a for a, text in cells if not text]
    # the dice: each colour's row starts with its letter and word on its colour
    dice = boards[0]
    for colour, row in zip(COLOURS, dice[1:], strict=True):
        attrs, text = row[0]
        assert text == f"{DIE_LETTERS[colour]} {colour}"
        assert attrs["bgcolor"] == DIE_COLOURS[colour]
    # every player's board heads its five columns with their letters on their colours
    heads = [t[0] for t in boards if t[0][0][1] == "column"]
    assert len(heads) == len(view.players)
    for head in heads:
        assert [(a["bgcolor"], text) for a, text in head[1:]] == [
            (DIE_COLOURS[c], DIE_LETTERS[c]) for c in COLOURS]
    # a coloured cell of a die colour is in a column (or a row) headed by that colour
    colours = {a.get("bgcolor") for a, _ in cells} - {None}
    assert colours <= {*DIE_COLOURS.values(), "#eeeeee", BACK, "#fff2b3", "#fcd5d2",
                       "#e6dcf5", "#cfe2f3"}
    # the legend: every colour with its letter and word, every player's mark
    meanings = {text for row in legend for _, text in row[1:]}
    letters = {(a.get("bgcolor"), text) for row in legend for a, text in row[:1]}
    for colour in COLOURS:
        assert (DIE_COLOURS[colour], DIE_LETTERS[colour]) in letters and colour in meanings
    for name, mark in marks([b.name for b in view.players]).items():
        assert any(text == mark for _, text in (row[0] for row in legend))
        assert any(m.startswith(f"{name}'s figure") for m in meanings)
    assert "a face-down alliance tile: nobody sees its face" in meanings


def test_the_board_shows_the_position_by_hand() -> None:
    view = view_for(position(), 0)
    text, html = _render(view)
    tables = _board_part(html).tables
    mine = next(t for t in tables if t[0][0][1] == "column")  # the viewer's board first
    rows = {row[0][1]: row for row in mine}
    assert rows["die"][2][1] == "3" and rows["die"][3][1] == "2"  # red 3, purple 2
    hired = rows["helper 1"][1]
    assert hired == ({"bgcolor": DIE_COLOURS["yellow"], "style": hired[0]["style"]},
                     "H\n+3 fl")
    assert "font-weight:bold" in hired[0]["style"]
    assert rows["helper 2"][1][1] == "3 fl\n+1 fig"  # the cost to hire and the effect
    assert rows["pol"][2][1] == "este3"
    attrs, shown = rows["mil"][2]
    assert shown == "?" and attrs["bgcolor"] == BACK  # the face-down tile: a back
    assert "sforza5" not in html and "sforza5" not in text
    tracks = next(t for t in tables if t[0][0][1] == "space")
    by_space = {row[0][1]: [c for _, c in row] for row in tracks[1:]}
    assert by_space["1"][2] == "A" and by_space["3"][2] == "B" and by_space["6"][4] == "A"
    assert by_space["0"][-1] == "A B C"  # everyone on initiative 0
    rewards = next(t for t in tables if t[0][0][1] == "round")
    assert [c for _, c in rewards[3]] == ["> 3", "progress-careers"]
    # the text part: its sections and the key to their marks
    assert "Key: * a hired helper (else its cost to hire); +N? N face-down" in text
    assert max(len(line) for line in text.partition("\n-- \n")[0].splitlines()) <= 78


def test_marks_tell_the_players_apart() -> None:
    assert marks(["anna", "bas", "chris"]) == {"anna": "A", "bas": "B", "chris": "C"}
    assert marks(["anna", "andrea", "bas"]) == {"anna": "ANN", "andrea": "AND", "bas": "BAS"}


def test_the_picture_is_the_same_for_the_same_view_and_small() -> None:
    sizes = {}
    for players in (2, 3, 4):
        view = view_for(_midgame(players), 0)
        png = PRESENTER.board_png(view)
        im = Image.open(io.BytesIO(png))
        im.verify()
        assert Image.open(io.BytesIO(png)).mode == "P"
        picture._picture.cache_clear()
        assert picture.board_png(view_for(_midgame(players), 0)) == png
        sizes[players] = len(png)
    assert sizes[2] < sizes[3] < sizes[4] < 60_000, sizes
    # in English whatever the reader's language (the font draws Latin-1 only)
    view = view_for(_midgame(3), 1)
    with speaking("el", PRESENTER):
        assert PRESENTER.board_png(view) == picture.board_png(view)


def test_the_picture_draws_the_board_and_a_back_for_a_face_down_tile() -> None:
    state = position()
    png = PRESENTER.board_png(view_for(state, 0))
    rgb = Image.open(io.BytesIO(png)).convert("RGB")
    used = {c for _, c in rgb.getcolors(1 << 16) or []}
    for colour in (*DIE_COLOURS.values(), BACK):
        assert tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5)) in used, colour
    # which tile lies face down changes nothing; it is the public board, the same for
    # every seat and for the referee
    other = replace_board(state, 0, hidden=("medici2",))
    assert PRESENTER.board_png(view_for(other, 0)) == png
    for view in (view_for(state, 1), view_for(state, None), PRESENTER.full_view(state)):
        assert PRESENTER.board_png(view) == png
    # a hired helper more is drawn
    hired = replace_board(state, 0, helpers=(("yellow", 1), ("red", 2)))
    assert PRESENTER.board_png(view_for(hired, 0)) != png


def test_any_name_is_drawn() -> None:
    view = view_for(position(), 0)
    names = ("zoë", "мария", "γιάννης")
    view = dataclasses.replace(view, players=tuple(
        dataclasses.replace(p, name=n) for p, n in zip(view.players, names, strict=True)))
    assert picture.latin("zoë мария") == "zoë ?????"
    assert Image.open(io.BytesIO(PRESENTER.board_png(view))).format == "PNG"


def test_a_status_mail_carries_the_picture_inline(mod, mailbox, smtp) -> None:
    game_id = mod.new_game(PLAYERS[:3], NOW, game="signorie", seed="picture")
    run(mod, mailbox, smtp)
    msg = next(m for m in reversed(smtp.sent) if ".status." in m.message_id)
    raw = email.message_from_bytes(msg.raw)
    plain, related = raw.get_payload()
    html_part, image = related.get_payload()
    assert (related.get_content_type(), image.get_content_type()) == ("multipart/related",
                                                                     "image/png")
    assert image["Content-ID"] == f"<{IMAGE_CID}>"
    html = html_part.get_payload(decode=True).decode()
    assert f'<img src="cid:{IMAGE_CID}" alt="Picture of the board' in html
    with mod.store.read() as s:
        from pbem.store import Game

        row = s.get(Game, game_id)
        assert row is not None
        state = mod.load(s, row)[1]
    to = str(raw["To"])
    seat = next(i for i, p in enumerate(PLAYERS) if p.email == to)
    assert image.get_payload(decode=True) == PRESENTER.board_png(view_for(state, seat))
    assert "Key: * a hired helper" in plain.get_payload(decode=True).decode()


def test_show_png_writes_the_picture_of_a_signorie_log(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("DATABASE_URL", "PBEM_CONFIG", "PBEM_DB", "PBEM_TRANSPORT"):
        monkeypatch.delenv(var, raising=False)
    runner = CliRunner()
    made = runner.invoke(app, ["selfplay", "--game", "signorie", "--players", "3", "--seed",
                               "pic"])
    assert made.exit_code == 0, made.output
    log = tmp_path / "sig.log"
    log.write_text(made.output, encoding="utf-8")
    out = tmp_path / "board.png"
    shown = runner.invoke(app, ["show", str(log), "--game", "signorie", "--at", "60",
                                "--as", "anna", "--png", str(out)])
    assert shown.exit_code == 0, shown.output
    from pbem.logs import replay_log

    r = replay_log(log.read_text(encoding="utf-8"), upto=60, game="signorie")
    assert r.state is not None
    assert out.read_bytes() == PRESENTER.board_png(view_for(r.state, 0))
    assert Image.open(out).format == "PNG"
