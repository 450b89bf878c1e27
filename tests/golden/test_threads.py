"""One thread per game, judged by mail-client software: the golden game of each game
(`goldens.play`: every status, private, error, undo, digest and game-over mail, for a
seat on each mail setting) and a reply to the game-over mail after it (a refusal:
the game is over) are written, with the players' own replies, into one Maildir per
player, as a mail client keeps them (inbox and sent mail).

- notmuch (Debian's `notmuch`) indexes each Maildir and counts its threads. It
  threads as Thunderbird and mutt do (JWZ: by References and In-Reply-To). Every
  player must see one thread holding all its mails.
- Gmail's documented rule (developers.google.com/gmail/api/guides/threads: a mail
  joins a conversation when its subject matches, after "Re:", and its References or
  In-Reply-To name a mail of the conversation) is applied to the same mails in the
  order they came and went (`gmail_conversations`). Apple Mail threads by subject
  and references alike.

scripts/test.sh installs notmuch with apt; without it the test skips, except in CI
(CI=true), where it fails.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.policy import default
from pathlib import Path
from unittest import mock

import pytest
from goldens import GAMES, Sent, Step, kind_of, kinds, play, text_of

from pbem import transport
from pbem.scripted import DirPost, ScriptedPlayer
from pbem.transport import MailDirs

NOTMUCH = shutil.which("notmuch")


@pytest.fixture(scope="module")
def notmuch() -> str:
    if NOTMUCH is None:
        reason = "notmuch is not installed (apt-get install notmuch; scripts/test.sh does)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"the threading test must run in CI: {reason}")
        pytest.skip(reason)
    return NOTMUCH


class Kept(DirPost):
    """The players' mailboxes, keeping every mail each player got and sent as its
    bytes, in the order they came and went (`mails[address]`)."""

    def __init__(self, dirs: MailDirs) -> None:
        super().__init__(dirs)
        self.mails: dict[str, list[bytes]] = defaultdict(list)

    def receive(self, address: str) -> list[EmailMessage]:
        self.mails[address] += [p.read_bytes() for p in self.dirs.new(address)]
        return super().receive(address)

    def send(self, msg: EmailMessage) -> None:
        """Send `msg` as a mail client writes a reply: its References those of the
        mail it answers and that mail's Message-ID (RFC 5322 3.6.4)."""
        address, parent = str(msg["From"]), str(msg["In-Reply-To"] or "")
        answered = [h for h in map(headers, self.mails[address])
                    if str(h["Message-ID"]) == parent]
        if answered:
            del msg["References"]
            msg["References"] = " ".join([*str(answered[0]["References"] or "").split(),
                                          parent])
        self.mails[address].append(bytes(msg))
        super().send(msg)


@dataclass(frozen=True)
class Game:
    sent: list[Sent]  # every mail the moderator sent
    mails: dict[str, list[bytes]]  # each player's mails, got and sent, in order


def refused_after_the_end(step: Step, players: Sequence[ScriptedPlayer]) -> None:
    """Each player answers the game-over mail, as a mail client replies: refused."""
    for p in players:
        step(p.reply(["thanks, good game"]))


def played(key: str) -> Game:
    """The golden game of `key`, its mails named in the order they were sent: the
    file transport names a mail by the time it came (`pbem.transport._eml_name`),
    which the golden game's frozen clock makes the same for every mail of a pass."""
    kept: list[Kept] = []
    order = itertools.count()

    def post(dirs: MailDirs) -> Kept:
        kept.append(Kept(dirs))
        return kept[0]

    def in_order(msg_id: str) -> str:
        return f"{next(order):08d}-{transport._digest(msg_id)}.eml"

    with mock.patch.object(transport, "_eml_name", in_order):
        sent = play(GAMES[key], post=post, coda=refused_after_the_end)
    return Game(sent, kept[0].mails)


@pytest.fixture(scope="module", params=list(GAMES))
def game(request: pytest.FixtureRequest) -> tuple[str, Game]:
    return request.param, played(request.param)


def headers(raw: bytes) -> EmailMessage:
    msg = BytesHeaderParser(policy=default).parsebytes(raw)
    assert isinstance(msg, EmailMessage)
    return msg


def notmuch_threads(tool: str, folder: Path, mails: Iterable[bytes]) -> list[dict]:
    """The threads notmuch makes of `mails`, written into the Maildir `folder`: its
    `search --output=summary` records (thread, subject, total messages)."""
    cur = folder / "mail" / "cur"
    for sub in ("cur", "new", "tmp"):
        (folder / "mail" / sub).mkdir(parents=True)
    for i, raw in enumerate(mails):
        (cur / f"{i:05d}.pbem:2,S").write_bytes(raw)
    config = folder / "notmuch-config"
    config.write_text(f"[database]\npath={folder / 'mail'}\n[new]\ntags=inbox\nignore=\n"
                      "[maildir]\nsynchronize_flags=false\n")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(folder),
           "NOTMUCH_CONFIG": str(config)}

    def run(*args: str) -> str:
        return subprocess.run([tool, *args], env=env, check=True, capture_output=True,
                              text=True).stdout

    run("new", "--quiet")
    return json.loads(run("search", "--format=json", "--output=summary", "--", "*"))


_PREFIX = re.compile(r"^\s*((re|fwd?|aw|antw|sv|vs)\s*:\s*)+", re.IGNORECASE)
_MSGID = re.compile(r"<[^<>\s]+>")


def gmail_subject(subject: str) -> str:
    """A subject as Gmail compares it: without reply and forward prefixes."""
    return _PREFIX.sub("", subject).strip()


def gmail_conversations(mails: Iterable[bytes]) -> list[list[str]]:
    """The conversations (each its Message-IDs) Gmail's documented rule makes of
    `mails`, in the order they came: a mail joins the conversation whose subject it
    has (`gmail_subject`) and one of whose mails its In-Reply-To or References names;
    else it starts one."""
    conversations: list[tuple[str, list[str]]] = []
    for raw in mails:
        msg = headers(raw)
        subject = gmail_subject(str(msg["Subject"] or ""))
        links = set(_MSGID.findall(f"{msg['In-Reply-To'] or ''} {msg['References'] or ''}"))
        mid = str(msg["Message-ID"])
        for conv_subject, ids in conversations:
            if conv_subject == subject and links & set(ids):
                ids.append(mid)
                break
        else:
            conversations.append((subject, [mid]))
    return [ids for _, ids in conversations]


def test_the_mails_cover_every_kind_a_player_gets(game: tuple[str, Game]) -> None:
    key, g = game
    for name, rule in kinds(GAMES[key], g.sent).items():
        assert any(rule(s) for s in g.sent), f"{key}: no {name} mail in the game"
    refusals = [s for s in g.sent if kind_of(s.msg) == "error" and "is over" in text_of(s.msg)]
    assert len(refusals) == 3, f"{key}: the replies after the end were not refused"


def test_notmuch_threads_each_players_game_as_one(notmuch: str, game: tuple[str, Game],
                                                   tmp_path: Path) -> None:
    key, g = game
    assert len(g.mails) == 3
    for address, mails in g.mails.items():
        ids = {str(headers(m)["Message-ID"]) for m in mails}
        assert len(ids) == len(mails) > 20
        threads = notmuch_threads(notmuch, tmp_path / address, mails)
        assert [t["total"] for t in threads] == [len(mails)], \
            f"{key}: {address}'s {len(mails)} mails in {len(threads)} threads: " \
            + "; ".join(f"{t['total']} {t['subject']!r}" for t in threads)


def test_references_name_earlier_mails_oldest_first(game: tuple[str, Game]) -> None:
    """Each mail's References are mails the player had before it, in the order it had
    them (the thread's root first, the mail answered last), as RFC 5322 builds them."""
    key, g = game
    for address, mails in g.mails.items():
        seen: dict[str, int] = {}
        for i, raw in enumerate(mails):
            msg = headers(raw)
            refs = str(msg["References"] or "").split()
            places = [seen[r] for r in refs]
            assert places == sorted(places), (key, address, str(msg["Message-ID"]), refs)
            if refs:
                assert refs[0] == str(headers(mails[0])["Message-ID"])
                assert refs[-1] == str(msg["In-Reply-To"])
            seen[str(msg["Message-ID"])] = i


def test_gmail_keeps_each_players_game_in_one_conversation(game: tuple[str, Game]) -> None:
    key, g = game
    for address, mails in g.mails.items():
        conversations = gmail_conversations(mails)
        assert [len(c) for c in conversations] == [len(mails)], (key, address)


def _mail(mid: str, subject: str, parent: str = "", refs: str = "") -> bytes:
    head = [f"Message-ID: {mid}", f"Subject: {subject}"]
    head += [f"In-Reply-To: {parent}"] if parent else []
    head += [f"References: {refs}"] if refs else []
    return ("\r\n".join(head) + "\r\n\r\nbody\r\n").encode("ascii")


def test_the_gmail_rule_needs_both_the_subject_and_a_link() -> None:
    a, b, c, d = "<a@x>", "<b@x>", "<c@x>", "<d@x>"
    mails = [_mail(a, "[pof-17] The Princes of Florence"),
             _mail(b, "Re: [pof-17] The Princes of Florence", a, a),  # joins
             _mail(c, "[pof-17] anna to act", b, f"{a} {b}"),  # another subject: splits
             _mail(d, "RE: Fwd: [pof-17] The Princes of Florence")]  # no link: splits
    assert gmail_conversations(mails) == [[a, b], [c], [d]]


def test_notmuch_splits_what_no_reference_joins(notmuch: str, tmp_path: Path) -> None:
    """The judge can fail: one subject, but a mail naming no mail of the thread is a
    thread of its own (notmuch, like Thunderbird, does not thread by subject)."""
    a, b, c = "<a@x>", "<b@x>", "<c@x>"
    subject = "[pof-17] The Princes of Florence"
    mails = [_mail(a, subject), _mail(b, subject, a, a), _mail(c, subject)]
    threads = notmuch_threads(notmuch, tmp_path, mails)
    assert sorted(t["total"] for t in threads) == [1, 2]
