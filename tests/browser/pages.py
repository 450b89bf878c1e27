"""The mails a real game sends, and a headless Chromium to lay them out in: shared by
the browser tests and `scripts/screenshots.py`.

The mails come from the real pipeline (`pbem.demo`: scripted players play a whole game
by mail, typos and undo requests included), then from the same moderator a notice
(pause, resume) and the refusals of a stranger's mail and of a player's mail that names
no game. Nothing here renders a template by hand.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

from sqlmodel import select

from pbem.config import Config
from pbem.demo import DOMAIN, run_demo
from pbem.moderator import Moderator, PlayerSpec
from pbem.outbound import Renderer
from pbem.runner import poll_once, transports
from pbem.scripted import DirPost
from pbem.store import OutMail, Store
from pbem.transport import MailDirs

CHROMIUM = Path(os.environ.get("PBEM_CHROMIUM", "/usr/bin/chromium"))
# Debian's Chromium, headless, offline and quiet (never `playwright install`).
CHROMIUM_ARGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync")
WIDTHS = (390, 900)  # a phone, a desktop mail client's reading pane
HEIGHT = 800


@dataclass(frozen=True)
class Mail:
    """One HTML part as the moderator queued it, and what kind of mail it is
    (`kind_of`)."""

    kind: str
    subject: str
    text: str
    html: str
    image: bytes | None = None  # the board's inline picture (`cid:`), if the mail has one


_PHASE = re.compile(r"Round \d+ of \d+, (\w+) phase")


def kind_of(row: OutMail) -> str:
    """What a queued mail is, for choosing examples: `status:<phase>` (setup, a phase
    of a round, over), `status:undo` (an undo asked), `private`, `error`, `refusal`,
    `notice`."""
    if row.kind == "error":
        return "refusal" if "did not act on your mail" in row.text else "error"
    if row.kind != "status":
        return row.kind
    if "Undo asked:" in row.text or "Everyone agreed:" in row.text:
        return "status:undo"
    if "The game is over." in row.text:
        return "status:over"
    if "Setup:" in row.text:
        return "status:setup"
    found = _PHASE.search(row.text)
    return f"status:{found.group(1)}" if found else "status"


def _mail_to(sender: str, to: str, subject: str, body: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, subject
    msg["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2])
    msg.set_content(body)
    return msg


def game_mails_of(out_dir: Path, *, game: str, players: int, seed: int = 1) -> list[Mail]:
    """Every mail of a whole scripted game of `game` by mail, in the order queued
    (kind `status:<phase>` read from the mail's first line, the headline)."""
    result = run_demo(out_dir, players=players, seed=seed, game=game)
    store = Store(Config(db_path=result.db_path).sqlalchemy_url())
    with store.read() as s:
        rows = s.exec(select(OutMail).order_by(OutMail.id)).all()  # type: ignore[arg-type]
        mails = [Mail(kind_of(r), r.subject, r.text, r.html, r.image) for r in rows if r.html]
    store.dispose()
    return mails


def play_game(out_dir: Path, *, players: int = 5, seed: int = 1) -> list[Mail]:
    """Every mail of a whole scripted game of `players` and of the moderator's
    notices and refusals after it, in the order queued."""
    result = run_demo(out_dir, players=players, seed=seed)
    cfg = Config(db_path=result.db_path, mail_dir=out_dir / "mail",
                 moderator_address=f"moderator@{DOMAIN}", transport="files")
    store = Store(cfg.sqlalchemy_url())
    mod = Moderator(store, cfg, Renderer())
    with store.read() as s:
        last = max(r.created for r in s.exec(select(OutMail)).all())
    now = last + timedelta(hours=1)
    specs = [PlayerSpec(n, f"{n}@{DOMAIN}", "Europe/Amsterdam") for n in ("anna", "bas", "chris")]
    game_id = mod.new_game(specs, now, seed="browser-notices")
    mod.pause(game_id, now, "anna is travelling until Friday and asked for a break")
    mod.resume(game_id, now + timedelta(days=3))
    post = DirPost(MailDirs(cfg.mail_dir))
    post.send(_mail_to("stranger@elsewhere.example", cfg.moderator_address, "Hello",
                       "Can I join a game?\n"))
    post.send(_mail_to(f"anna@{DOMAIN}", cfg.moderator_address, "my move", "pass\n"))
    inbox, sender = transports(cfg)
    poll_once(mod, inbox, sender, lambda: now + timedelta(days=3, minutes=5))
    with store.read() as s:
        rows = s.exec(select(OutMail).order_by(OutMail.id)).all()  # type: ignore[arg-type]
        mails = [Mail(kind_of(r), r.subject, r.text, r.html) for r in rows if r.html]
    store.dispose()
    return mails


def examples(mails: list[Mail], per_kind: int = 4) -> dict[str, list[Mail]]:
    """For each kind of mail, the first one and those most likely to be too wide: the
    longest line of the text part, the longest HTML."""
    kinds: dict[str, list[Mail]] = {}
    for m in mails:
        kinds.setdefault(m.kind, []).append(m)
    chosen = {}
    for kind, group in kinds.items():
        picks = [group[0], *sorted(group, key=lambda m: -max(map(len, m.text.splitlines()))),
                 *sorted(group, key=lambda m: -len(m.html))]
        unique = list({id(m): m for m in picks}.values())
        chosen[kind] = unique[:per_kind]
    return chosen


def showcase(mails: list[Mail]) -> Mail:
    """The status mail the README shows: of the player's action turns that offer
    buildings to build, the middle one of the game."""
    turns = [m for m in mails if m.kind == "status:action" and "e.g. build " in m.text
             and "It is your turn" in m.text]
    return turns[len(turns) // 2]


@contextmanager
def chromium(user_data_dir: Path) -> Iterator[Any]:
    """A persistent context (a fresh profile in `user_data_dir`) of Debian's Chromium,
    headless."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(user_data_dir), executable_path=str(CHROMIUM), headless=True,
            args=list(CHROMIUM_ARGS), viewport={"width": WIDTHS[0], "height": HEIGHT},
            offline=True)
        try:
            yield context
        finally:
            context.close()


# What sticks out of the viewport: the document's scroll width, every element whose
# right edge is beyond the viewport, and every element whose content is wider than its
# box (text running out of a <pre> or a table cell, even when a parent clips it).
OVERFLOW_JS = """() => {
  const width = window.innerWidth, out = [];
  const name = (el) => el.tagName.toLowerCase() +
    (el.textContent ? ' "' + el.textContent.trim().slice(0, 40) + '"' : '');
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (box.right > width + 0.5) out.push(name(el) + ' ends at ' + Math.round(box.right));
    else if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
      out.push(name(el) + ' holds ' + el.scrollWidth + ' px in ' + el.clientWidth);
  }
  return {scrollWidth: document.documentElement.scrollWidth, innerWidth: width,
          overflowing: out};
}"""


def layout(page: Any, html: str, width: int) -> dict[str, Any]:
    """Lay `html` out at `width` px and say what overflows (`OVERFLOW_JS`)."""
    page.set_viewport_size({"width": width, "height": HEIGHT})
    page.set_content(html)
    result: dict[str, Any] = page.evaluate(OVERFLOW_JS)
    return result
