"""What the players are told: after every change each seat gets one status mail
(and a private mail for what it alone learnt), and the moderator's notices.

`tell` is the one place that decides what each seat is told after a change: a seat
whose mail setting is `turn` or `daily` (`pbem.mail_settings`) only when it must
see the change now, a `daily` one also once a day (`send_digests`). Every status
mail lists every move since the seat's last one. The words come from the game's
presenter (`pbem.presenter`), the mails from the templates
(`pbem.outbound.Renderer`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from engine.chain import head
from engine.registry import summary_of
from engine.undo import START, Tracker, legal_undo_commands

from .config import Config
from .i18n import N_, Said, speaking, words
from .i18n import gettext as _
from .loading import Loaded
from .mail_settings import DAILY, Reasons, digest_time
from .outbound import Renderer, mail_row, queue_mail, status_context, thread_of, when
from .playing import Played, undo_line
from .presenter import board_png, private_title
from .store import EventRow, Game, Seat, head_hash, seats_of


def subject(game_id: str, title: str) -> str:
    """The subject of every mail of a game: `[game-id] Game Title`, the same for the
    whole game, so that mail clients keep the game in one conversation (what changes
    is in each mail's first line; docs/moderator.md, "One thread per game")."""
    return f"[{game_id}] {title}"


def game_subject(s: Session, game_id: str) -> str:
    """The subject of the mails of the game `game_id` (its title from the registry)."""
    row = s.get(Game, game_id)
    title = summary_of(row.game).title if row is not None else ""
    return subject(game_id, title) if title else f"[{game_id}]"


@dataclass(frozen=True)
class Post:
    """Renders mails and queues them in the outbox of the session given."""

    cfg: Config
    renderer: Renderer

    def queue(self, s: Session, template: str, ctx: dict[str, Any], *, kind: str, to: str,
              title: str, now: datetime, game_id: str | None, folder: str | None = None,
              reply_to: str | None = None, in_reply_to: str | None = None,
              references: Sequence[str] = (), version: int | None = None,
              image: bytes | None = None) -> None:
        """Render `template` with `ctx` and queue it (with `image`, the inline picture
        its HTML shows). A mail of a game has the game's
        subject (`game_subject`; `title` then only names what the mail is about in
        the template) and continues the recipient's thread of the game (`thread_of`);
        any other mail has `title` as its subject."""
        text, html = self.renderer.render(template, {"title": title, **ctx}, folder)
        if game_id is None:
            mail_subject, thread = title, ()
        else:
            mail_subject, thread = game_subject(s, game_id), thread_of(s, game_id, to)
        queue_mail(s, mail_row(self.cfg, game_id=game_id, kind=kind, to=to,
                               subject=mail_subject, text=text, html=html, now=now,
                               reply_to=reply_to, in_reply_to=in_reply_to,
                               references=references, thread=thread, version=version,
                               image=image))

    def reply_to(self, seat: Seat) -> str:
        return self.cfg.reply_address(seat.token)


def legal_lines(loaded: Loaded, seat: int, tracker: Tracker = START,
                view: Any = None) -> list[str]:
    """A seat's legal commands now, the undo protocol's last, in short (`view`: the
    seat's, if it is at hand)."""
    game, state = loaded.rules.game, loaded.state
    cmds = [*game.legal_commands(state, seat),
            *legal_undo_commands(game, state, tracker, seat)]
    return loaded.rules.presenter.summarise_commands(
        cmds, loaded.view(seat) if view is None else view)


def changes_for(loaded: Loaded, events: Sequence[Any], seat: int) -> list[str]:
    """The lines about `events` that `seat` reads (others' secrets redacted)."""
    game, presenter, names = loaded.rules.game, loaded.rules.presenter, loaded.names
    return [presenter.describe_event(game.redact(e, seat), names, seat) for e in events]


def concerned(presenter: Any, events: Sequence[Any], seat: int) -> bool:
    """Whether `events`, caused by another seat's mail or the deadline policy, happened
    to `seat`: one of them is the seat's own (an auction it won at another's pass, a
    move played for it at its deadline), or the game's presenter says it concerns the
    seat (its optional `concerns(event, seat)`: a card taken from it)."""
    concerns = getattr(presenter, "concerns", None)
    return any(getattr(e, "seat", None) == seat or (concerns is not None and concerns(e, seat))
               for e in events)


def reasons(loaded: Loaded, played: Played, seat: int, sender: Seat | None, *,
            everyone: bool = False, confirm: bool = False) -> Reasons:
    """Why `seat` is told of the change `played` made (`Reasons.tell`); `confirm`:
    the change answers the seat's own mail, which changed its mail setting."""
    own = sender is not None and seat == sender.seat
    return Reasons(to_act=seat in loaded.rules.game.to_act(loaded.state),
                   consent=bool(played.notices), confirm=own and confirm,
                   concerned=not own and concerned(loaded.rules.presenter, played.events,
                                                   seat),
                   everyone=everyone or loaded.state.finished)


def tell(post: Post, s: Session, row: Game, seats: Sequence[Seat], loaded: Loaded,
         played: Played, digest: str, now: datetime, *, sender: Seat | None = None,
         in_reply_to: str | None = None, references: Sequence[str] = (),
         notice: str | Sequence[str | Said] = "", sender_notice: str = "",
         everyone: bool = False) -> None:
    """What each seat is told after `played` made `loaded` (the game after it): a
    status mail to every seat its mail setting lets it reach (`reasons`; `everyone`:
    to all, as at the start), the sender's also echoing its commands, answering its
    mail and saying `sender_notice` (a new mail setting: always told); and a
    private mail to a seat that alone learnt something (its cards). The mails of
    the change that ends the game reveal its seed."""
    presenter = loaded.rules.presenter
    for seat in seats:
        own = sender is not None and seat.seat == sender.seat
        why = reasons(loaded, played, seat.seat, sender, everyone=everyone,
                      confirm=bool(sender_notice))
        if why.tell(seat.mail):
            with speaking(seat.language, presenter):
                seed = seed_sentence(row) if loaded.state.finished else ""
                said = " ".join(n for n in (words(notice), seed, sender_notice if own else "")
                                if n)
            status(post, s, row, seat, loaded, now, digest, tracker=played.tracker,
                   echo=played.echo if own else (), ignored=played.ignored if own else (),
                   in_reply_to=in_reply_to if own else None,
                   references=references if own else (), notice=said)
        news = [e for e in played.events
                if presenter.private_news(e) and getattr(e, "seat", None) == seat.seat]
        if news:
            private(post, s, row, seat, loaded, news, now)


def seed_sentence(row: Game) -> str:
    """What the mails of the change that ends a game say of its seed."""
    return _("The seed of this game was %(seed)s with salt %(salt)s. Check them against "
             "the commitment in your first mail, and the whole game with 'pbem verify' on "
             "the log of 'pbem export %(game)s' (docs/trust.md).") % {
        "seed": repr(row.seed), "salt": repr(row.salt), "game": row.id}


def status(post: Post, s: Session, row: Game, seat: Seat, loaded: Loaded, now: datetime,
           digest: str, *, tracker: Tracker = START, echo: Sequence[str] = (),
           ignored: Sequence[str] = (), in_reply_to: str | None = None,
           references: Sequence[str] = (), notice: str = "") -> None:
    """A seat's status mail: what changed since its last one, the position as it
    sees it, and its commands; it answers the mail of `in_reply_to`."""
    presenter, state = loaded.rules.presenter, loaded.state
    with speaking(seat.language, presenter):
        _status(post, s, row, seat, loaded, now, digest, tracker=tracker, echo=echo,
                ignored=ignored, in_reply_to=in_reply_to, references=references,
                notice=notice)
    seat.mailed_version = state.version
    s.add(seat)


def _status(post: Post, s: Session, row: Game, seat: Seat, loaded: Loaded, now: datetime,
            digest: str, *, tracker: Tracker, echo: Sequence[str], ignored: Sequence[str],
            in_reply_to: str | None, references: Sequence[str], notice: str) -> None:
    presenter, state = loaded.rules.presenter, loaded.state
    view = loaded.view(seat.seat)
    picture = board_png(presenter, view)
    ctx = status_context(view, game_id=row.id,
                         changes=changes_for(loaded, loaded.events[seat.mailed_version:],
                                             seat.seat),
                         echo=echo, ignored=ignored,
                         legal=legal_lines(loaded, seat.seat, tracker, view),
                         deadline=row.deadline, tz=seat.tz, notice=notice,
                         position=head(state.version, digest),
                         undo_line=undo_line(loaded.rules.grammar, loaded.names, tracker,
                                             seat.seat),
                         presenter=presenter, picture=picture is not None)
    post.queue(s, "status", ctx, kind="status", to=seat.email, game_id=row.id,
               title=presenter.headline(view, seat.name), now=now,
               folder=presenter.template_dir, reply_to=post.reply_to(seat),
               in_reply_to=in_reply_to, references=references, version=state.version,
               image=picture)


DIGEST_NOTICE = N_("Your daily digest: every move since your last mail.")


def due_digests(s: Session, now: datetime, hour: int,
                game_id: str | None = None) -> list[tuple[str, int]]:
    """The seats on `daily` (of `game_id`, or of every game) whose digest is due at
    `now`, as (game id, seat): those whose oldest move not yet mailed to them is
    older than the latest digest time (`digest_time`). So a move waits at most a
    day, a seat with nothing new gets nothing, and a seat mailed since (its turn)
    waits for the next digest time."""
    q = (select(Seat.game_id, Seat.seat)
         .join(EventRow, (col(EventRow.game_id) == col(Seat.game_id))
               & (col(EventRow.seq) == col(Seat.mailed_version)))
         .where(Seat.mail == DAILY).where(col(EventRow.created) < digest_time(now, hour)))
    if game_id is not None:
        q = q.where(Seat.game_id == game_id)
    return [(g, seat) for g, seat in s.exec(q.order_by(col(Seat.game_id), col(Seat.seat)))]


def send_digest(post: Post, s: Session, row: Game, seat: Seat, loaded: Loaded,
                tracker: Tracker, now: datetime) -> None:
    """A seat's daily digest: its status mail, with every move since its last one."""
    with speaking(seat.language, loaded.rules.presenter):
        notice = _(DIGEST_NOTICE)
    status(post, s, row, seat, loaded, now, head_hash(s, row.id, row.version),
           tracker=tracker, notice=notice)


def confirm_setting(post: Post, s: Session, row: Game, seat: Seat, loaded: Loaded,
                    text: str, now: datetime, *, in_reply_to: str,
                    references: Sequence[str]) -> None:
    """The answer to a mail that only set the seat's mail setting (`text` confirms
    it)."""
    presenter = loaded.rules.presenter
    utc, local = when(row.deadline, seat.tz)
    with speaking(seat.language, presenter):
        title = _("your settings")
        ctx = {"game_id": row.id, "title": title, "lines": [text],
               "turn_line": presenter.turn_line(loaded.view(None), seat.name),
               "deadline_utc": utc, "deadline_local": local, "version": row.version,
               "position": head(row.version, head_hash(s, row.id, row.version))}
        post.queue(s, "notice", ctx, kind="notice", to=seat.email, game_id=row.id,
                   title=title, now=now, folder=presenter.template_dir,
                   reply_to=post.reply_to(seat), in_reply_to=in_reply_to,
                   references=references, version=row.version)


def private(post: Post, s: Session, row: Game, seat: Seat, loaded: Loaded,
            news: Sequence[Any], now: datetime) -> None:
    """A mail to one seat alone about what only it learnt (its own hidden values)."""
    presenter, state = loaded.rules.presenter, loaded.state
    with speaking(seat.language, presenter):
        ctx = {"game_id": row.id, "name": seat.name, "version": state.version,
               "lines": [presenter.describe_event(e, loaded.names, seat.seat) for e in news],
               "legal": legal_lines(loaded, seat.seat)}
        post.queue(s, "private", ctx, kind="private", to=seat.email, game_id=row.id,
                   title=private_title(presenter), now=now, folder=presenter.template_dir,
                   reply_to=post.reply_to(seat), version=state.version)


def announce(post: Post, s: Session, row: Game, loaded: Loaded, title: str | Said,
             lines: Sequence[str | Said], now: datetime, *,
             seats: Sequence[Seat] | None = None, kind: str = "notice",
             extra_to: Sequence[str] = ()) -> None:
    """A notice to every seat of a game (or to `seats`), and to further addresses
    (`extra_to`: without the game's position)."""
    presenter = loaded.rules.presenter
    view = loaded.view(None)
    position = head(row.version, head_hash(s, row.id, row.version))
    for seat in list(seats if seats is not None else seats_of(s, row.id)):
        utc, local = when(row.deadline, seat.tz)
        with speaking(seat.language, presenter):
            ctx = {"game_id": row.id, "title": str(title), "lines": [str(x) for x in lines],
                   "turn_line": presenter.turn_line(view, seat.name), "deadline_utc": utc,
                   "deadline_local": local, "version": row.version, "position": position}
            post.queue(s, "notice", ctx, kind=kind, to=seat.email, game_id=row.id,
                       title=str(title), now=now, folder=presenter.template_dir,
                       reply_to=post.reply_to(seat), version=row.version)
    for addr in extra_to:
        ctx = {"game_id": row.id, "title": str(title), "lines": [str(x) for x in lines],
               "turn_line": "", "deadline_utc": "", "deadline_local": "",
               "version": row.version, "position": position}
        post.queue(s, "notice", ctx, kind=kind, to=addr, game_id=row.id, title=str(title),
                   now=now, folder=presenter.template_dir)
