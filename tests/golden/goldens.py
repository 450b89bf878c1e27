"""Golden mails: one scripted game by mail per (game, language), on a fixed clock
(freezegun) with fixed seeds, and from its mails one of each kind per mail setting,
written as the text a golden file holds (`tests/golden/README.md`).

A mail is named by (game, setting, language, kind); its files are
`mails/<game>/<setting>/<language>/<kind>.txt` (the headers that matter and the text
part) and `.html` (the HTML part); the inline PNG is kept by its sha256 in
`mails/<game>/png.sha256` (with the Pillow version that drew it).

The game: each seat on its own mail setting (`SETTINGS`, seat i on setting i), so one
game gives every setting's mails (a seat's mails depend on its own setting only) and a
language is one more game, not three. Randomness the mails show is made
deterministic (`deterministic`: the seed, the commitment's salt, the reply tokens);
what is unique by design (Message-IDs) is normalised (`normalise`).
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import random
import re
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from unittest import mock

from freezegun import freeze_time

from engine.consent import Undo
from engine.protocol import CHANCE
from engine.undo import legal_undo_commands
from pbem.config import Config
from pbem.loading import Rules
from pbem.moderator import Moderator, PlayerSpec
from pbem.notifying import DIGEST_NOTICE
from pbem.runner import poll_once, transports
from pbem.scripted import DirPost, ScriptedPlayer, pick_actor
from pbem.store import Game, Store, utcnow
from pbem.transport import MailDirs

HERE = Path(__file__).parent
MAILS = HERE / "mails"
START = "2026-12-01 12:00:00"  # the fixed clock's start (UTC)
SETTINGS = ("every", "turn", "daily")  # seat i is on SETTINGS[i]
LANGUAGES = ("en", "nl", "el")  # add a language here and run scripts/golden.py --update
DEFAULT_LANGUAGE = "en"
NAMES = ("anna", "bas", "chris")
ZONES = ("Europe/Amsterdam", "America/New_York", "UTC")
STEP_MINUTES = 45  # the clock moves this much a mail: days pass (digests), no seat floods


@dataclass(frozen=True)
class GoldenGame:
    """A game the golden mails are taken from: which registered game, its options,
    and the status mail phases to keep (each phase's first status mail to the seat
    when it is to act)."""

    key: str  # the folder of its golden files
    name: str  # the registered game
    phases: tuple[str, ...]
    typo_phase: str  # each seat sends one typo on its first turn in this phase
    undo_phase: str  # and asks once to undo its move in this one
    options: tuple[tuple[str, str], ...] = ()
    private: bool = True  # the game mails a seat its own cards (Signorie does not: S8)
    seed: str = "golden-seed"  # another, if at this one a seat lacks a kind (`pick`)


GAMES = {
    "princes": GoldenGame("princes", "princes-of-florence",
                          ("keep", "characters", "auction", "action"), "auction", "action",
                          options=(("expansion", "muse-and-princess"),),
                          seed="golden-2"),  # the first seed at which every seat draws
    "signorie": GoldenGame("signorie", "signorie", ("actions", "rewards"), "actions", "actions",
                           private=False),
}


@dataclass(frozen=True)
class Sent:
    """One mail the moderator sent, with what the game was when it went out."""

    seat: int
    phase: str  # the game's phase after the pass that sent it
    to_act: bool  # the seat was to act then
    msg: EmailMessage


def kind_of(msg: EmailMessage) -> str:
    """A moderator mail's kind from its Message-ID (status, private, notice, error)."""
    m = re.match(r"<pbem\.([a-z]+)\.", str(msg["Message-ID"]))
    assert m is not None, msg["Message-ID"]
    return m.group(1)


def text_of(msg: EmailMessage) -> str:
    body = msg.get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content())


# --------------------------------------------------------------------------- the rules


Rule = Callable[[Sent], bool]


def kinds(game: GoldenGame, sent: Sequence[Sent] = ()) -> dict[str, Rule]:
    """Each golden kind and the rule that picks it from the mails `sent`: the first
    mail to a seat for which the rule holds (the game-over mail: the last one)."""
    firsts: dict[int, EmailMessage] = {}
    for s in sent:
        if kind_of(s.msg) == "private":
            firsts.setdefault(s.seat, s.msg)

    def status_in(phase: str) -> Rule:
        return lambda s: (kind_of(s.msg) == "status" and s.phase == phase and s.to_act
                          and DIGEST_NOTICE not in text_of(s.msg))

    rules: dict[str, Rule] = {f"status-{p}": status_in(p) for p in game.phases}
    if game.private:  # the deal is a seat's first private mail, a draw a later one
        rules["private-deal"] = lambda s: kind_of(s.msg) == "private"
        rules["private-draw"] = lambda s: (kind_of(s.msg) == "private"
                                           and s.msg is not firsts[s.seat])
    rules["error"] = lambda s: kind_of(s.msg) == "error"
    rules["undo-request"] = lambda s: "Reply 'agree' or 'refuse'." in text_of(s.msg)
    rules["daily-digest"] = lambda s: DIGEST_NOTICE in text_of(s.msg)
    rules["game-over"] = lambda s: kind_of(s.msg) == "status" and s.phase == "over"
    return rules


EXPECTED_ABSENT = {("every", "daily-digest"), ("turn", "daily-digest")}
"""(setting, kind) that has no mail by design: only `daily` gets digests."""


def pick(game: GoldenGame, sent: list[Sent]) -> dict[tuple[str, str], int]:
    """(setting, kind) -> the index in `sent` of the mail the rules pick; a kind
    found for no seat where one is expected fails (the script that plays the game
    must produce it: at another `GoldenGame.seed`, perhaps)."""
    out: dict[tuple[str, str], int] = {}
    for seat, setting in enumerate(SETTINGS):
        mine = [i for i, s in enumerate(sent) if s.seat == seat]
        for kind, rule in kinds(game, sent).items():
            found = [i for i in mine if rule(sent[i])]
            if not found:
                assert (setting, kind) in EXPECTED_ABSENT, \
                    f"{game.name}: no {kind} mail for the seat on {setting!r}"
                continue
            assert (setting, kind) not in EXPECTED_ABSENT, (game.name, setting, kind)
            out[setting, kind] = found[-1] if kind == "game-over" else found[0]
    return out


def picked(game: GoldenGame) -> dict[tuple[str, str, str], EmailMessage]:
    """(setting, language, kind) -> its mail. The rules read the English mails; a
    game plays the same in every language (the players answer the state, not the
    words), so in another language the mail at the same place is taken, and its
    Message-ID must say the same kind and version."""
    english = play(game, DEFAULT_LANGUAGE)
    where = pick(game, english)
    out = {}
    for language in LANGUAGES:
        sent = english if language == DEFAULT_LANGUAGE else play(game, language)
        assert len(sent) == len(english), f"{game.name}: {language} plays another game"
        places = _places(sent)
        for (setting, kind), i in where.items():
            found = places.get(_place(english, i))
            assert found is not None, (language, setting, kind)
            out[setting, language, kind] = sent[found].msg
    return out


def _id_shape(msg: EmailMessage) -> str:
    return normalise(str(msg["Message-ID"]))


def _place(sent: Sequence[Sent], i: int) -> tuple[int, str, int]:
    """Where mail `i` stands in the game: its seat, the shape of its Message-ID (kind
    and version), and how many mails of that seat and shape came before it. Mails
    queued for one seat at one version (a status and a private mail) may leave the
    outbox in either order, so the place does not count them."""
    seat, shape = sent[i].seat, _id_shape(sent[i].msg)
    before = sum(1 for s in sent[:i] if s.seat == seat and _id_shape(s.msg) == shape)
    return seat, shape, before


def _places(sent: Sequence[Sent]) -> dict[tuple[int, str, int], int]:
    return {_place(sent, i): i for i in range(len(sent))}


# --------------------------------------------------------------------------- determinism


@contextmanager
def deterministic(seed: str) -> Iterator[None]:
    """The random values a mail shows, drawn from `seed`: the game's salt (and so its
    seed commitment and every hash over the log) and the seats' reply tokens.
    Message-IDs stay random (unique by design) and are `normalise`d."""
    rng = random.Random(f"golden|{seed}")
    with mock.patch("secrets.token_hex",
                    lambda n=32: rng.getrandbits(8 * n).to_bytes(n, "big").hex()):
        yield


_MODERATOR_ID = re.compile(r"<(pbem\.[a-z]+(?:\.[A-Za-z0-9_-]+\.v\d+)?)\.[0-9a-f]+@")
_PLAYER_ID = re.compile(r"<\d+(?:\.\d+)+@[^<>@\s]+>")  # email.utils.make_msgid


def normalise(text: str) -> str:
    """The one place a golden file's text is made independent of chance: the random
    part of a moderator Message-ID becomes `*` (its kind, game and version stay), a
    player's Message-ID (`email.utils.make_msgid`) becomes `<player-mail@example.org>`;
    line ends are `\n`.
    Everything else in a mail is already fixed by the clock, the seeds and
    `deterministic`."""
    text = _MODERATOR_ID.sub(r"<\1.*@", text.replace("\r\n", "\n"))
    return _PLAYER_ID.sub("<player-mail@example.org>", text)


# --------------------------------------------------------------------------- the game


def specs(language: str) -> list[PlayerSpec]:
    """The seats: seat i on `SETTINGS[i]`, all in `language`."""
    seats = [PlayerSpec(n, f"{n}@example.org", z, mail=m)
             for n, z, m in zip(NAMES, ZONES, SETTINGS, strict=True)]
    if language != DEFAULT_LANGUAGE:  # PlayerSpec.language, English by default
        seats = [dataclasses.replace(p, language=language) for p in seats]  # type: ignore[call-arg]
    return seats


Step = Callable[[EmailMessage | None], None]


def play(game: GoldenGame, language: str = DEFAULT_LANGUAGE, *,
         post: Callable[[MailDirs], DirPost] = DirPost,
         coda: Callable[[Step, Sequence[ScriptedPlayer]], None] | None = None) -> list[Sent]:
    """The whole game by mail through the file transport (`pbem.transport.MailDirs`),
    every mail the moderator sent, in order for each seat. Scripted players answer
    their status mails (now and then with a typo, which earns an error mail); now and
    then the mover asks to undo its move and the others answer `agree`. `post`: the
    players' mailboxes; `coda`: more mails after the game ended (each sent by the
    step it is given, which runs the moderator and delivers its answers)."""
    with tempfile.TemporaryDirectory() as tmp, freeze_time(START) as clock, \
            deterministic(game.seed):  # the same salt and tokens in every language
        cfg = Config(mail_dir=Path(tmp) / "mail", moderator_address="moderator@example.org",
                     transport="files")
        store = Store("sqlite://")
        store.create_all()
        mod = Moderator(store, cfg)
        rules = Rules.named(game.name)
        seats = specs(language)
        game_id = mod.new_game(seats, utcnow(), seed=game.seed, game=game.name,
                               options=dict(game.options))
        inbox, sender = transports(cfg)
        mailboxes = post(MailDirs(cfg.mail_dir))
        players = [ScriptedPlayer(p.name, i, p.email, random.Random(f"{game.seed}|{i}"),
                                  rules=rules)
                   for i, p in enumerate(seats)]
        rng = random.Random(game.seed)
        sent: list[Sent] = []

        def state():
            with store.read() as s:
                row = s.get(Game, game_id)
                assert row is not None
                return mod.load(s, row)[1]

        def step(msg: EmailMessage | None = None) -> None:
            if msg is not None:
                mailboxes.send(msg)
            clock.tick(timedelta(minutes=STEP_MINUTES))
            poll_once(mod, inbox, sender)  # as cron runs it: the clock is utcnow
            now = state()
            acting = rules.game.to_act(now)
            for p in players:
                for mail in mailboxes.receive(p.address):
                    p.read(mail)
                    sent.append(Sent(p.seat, now.phase, p.seat in acting, mail))

        step()
        typed: set[int] = set()  # seats that sent their typo
        undone: set[int] = set()  # seats that asked for their undo
        for _ in range(5000):
            now = state()
            if now.finished:
                break
            assert rules.game.to_act(now) != (CHANCE,)
            actor = pick_actor(now, players, rng)
            assert actor is not None, f"nobody can act at v{now.version}"
            if now.phase == game.typo_phase and actor.seat not in typed:
                typed.add(actor.seat)  # one typo a seat: its error mail
                step(actor.reply([f"@v{now.version}", rules.presenter.typos[0]]))
                continue
            step(actor.move(now))
            if now.phase != game.undo_phase or actor.seat in undone:
                continue
            with store.read() as s:
                row = s.get(Game, game_id)
                assert row is not None
                _, now = mod.load(s, row)
                tracker = mod.tracker(s, row)
            if Undo() not in legal_undo_commands(rules.game, now, tracker, actor.seat):
                continue
            undone.add(actor.seat)  # one undo a seat: the others' undo requests
            step(actor.reply([f"@v{now.version}", "undo"]))
            for other in players:
                if other is not actor:
                    step(other.reply(["agree"]))
        else:
            raise AssertionError(f"{game.name}: the game did not end")
        if coda is not None:
            coda(step, players)
        store.dispose()
        return sent


# --------------------------------------------------------------------------- the files


def structure(part: EmailMessage) -> str:
    """A mail's MIME tree in one line: `multipart/alternative [text/plain, ...]`."""
    if not part.is_multipart():
        return part.get_content_type()
    inner = ", ".join(structure(p) for p in part.iter_parts())  # type: ignore[arg-type]
    return f"{part.get_content_type()} [{inner}]"


HEADERS = ("Subject", "From", "To", "Reply-To", "Message-ID", "In-Reply-To", "References")


def golden_text(msg: EmailMessage) -> str:
    """The .txt golden file: the headers that matter, the MIME structure, the text."""
    head = [f"{h}: {msg[h]}" for h in HEADERS if msg[h] is not None]
    head.append(f"Structure: {structure(msg)}")
    return normalise("\n".join(head) + "\n\n" + text_of(msg))


def golden_html(msg: EmailMessage) -> str | None:
    body = msg.get_body(preferencelist=("html",))
    return None if body is None else normalise(str(body.get_content()))


def png_sha256(msg: EmailMessage) -> str | None:
    for part in msg.walk():
        if part.get_content_type() == "image/png":
            return hashlib.sha256(part.get_payload(decode=True)).hexdigest()  # type: ignore[arg-type]
    return None


def pillow_version() -> str:
    import PIL

    return PIL.__version__


def golden_files(game: GoldenGame) -> dict[Path, str]:
    """Every golden file of `game` (paths relative to `MAILS`) and its text."""
    files: dict[Path, str] = {}
    pngs: list[str] = []
    for (setting, language, kind), msg in sorted(picked(game).items()):
        where = Path(game.key) / setting / language
        files[where / f"{kind}.txt"] = golden_text(msg)
        html = golden_html(msg)
        if html is not None:
            files[where / f"{kind}.html"] = html
        sha = png_sha256(msg)
        if sha is not None:
            pngs.append(f"{sha}  {setting}/{language}/{kind}.png")
    if pngs:
        files[Path(game.key) / "png.sha256"] = "\n".join(
            [f"# the inline PNG of each golden mail, drawn by Pillow {pillow_version()}",
             *pngs]) + "\n"
    return files


REGENERATE = "python scripts/golden.py --update"


def write(game: GoldenGame) -> int:
    """Write `game`'s golden files anew (a file no longer made is removed)."""
    files = golden_files(game)
    root = MAILS / game.key
    for old in root.rglob("*") if root.exists() else ():
        if old.is_file() and old.relative_to(MAILS) not in files:
            old.unlink()
    for rel, text in files.items():
        path = MAILS / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return len(files)


def differences(game: GoldenGame) -> list[str]:
    """A unified diff for each golden file of `game` that the mails no longer match
    (a missing or extra file counts), naming the file."""
    files = golden_files(game)
    root = MAILS / game.key
    stored = {p.relative_to(MAILS) for p in root.rglob("*") if p.is_file()} \
        if root.exists() else set()
    out = []
    for rel in sorted(stored | set(files)):
        old = (MAILS / rel).read_text(encoding="utf-8") if rel in stored else ""
        new = files.get(rel, "")
        if old != new:
            name = f"tests/golden/mails/{rel}"
            out.append("".join(difflib.unified_diff(
                old.splitlines(keepends=True), new.splitlines(keepends=True),
                fromfile=f"{name} (golden)" if rel in stored else "/dev/null",
                tofile=f"{name} (mail now)" if rel in files else "/dev/null")))
    return out
