"""Settings: environment variables, optionally a TOML file, with defaults that run the
demo with no server at all.

Every setting has an environment variable `PBEM_<NAME>` (plus `DATABASE_URL`); a file
named by `PBEM_CONFIG` (or `./pbem.toml` if present) may set the same names in lower
case. The environment wins over the file. docs/moderator.md lists them all.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ConfigError

DEFAULT_DB = Path("var") / "pbem.sqlite"


@dataclass(frozen=True)
class Config:
    """Everything the shell needs to reach its database and mail servers."""

    # Storage
    database_url: str = ""  # SQLAlchemy URL; "" means SQLite at `db_path`
    db_path: Path = DEFAULT_DB
    # Who the moderator is: replies go to moderator+<token>@domain
    moderator_address: str = "moderator@pbem.invalid"
    moderator_name: str = "pbem moderator"
    # Mail transport: "imap" (IMAP in, SMTP out) or "files" (a folder per address)
    transport: str = "files"
    mail_dir: Path = Path("var") / "mail"
    imap_host: str = "localhost"
    imap_port: int = 143
    imap_user: str = ""
    imap_password: str = ""
    imap_tls: str = "starttls"  # starttls | ssl | none
    imap_folder: str = "INBOX"
    processed_folder: str = "processed"
    smtp_host: str = "localhost"
    smtp_port: int = 587
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_tls: str = "starttls"  # starttls | ssl | none
    smtp_connections: int = 3  # SMTP connections a worker sends a batch over at once
    ca_file: str = ""  # extra CA bundle for both servers ("" = system CAs)
    # Behaviour
    poll_seconds: float = 30.0  # `serve` without IDLE, and the deadline check interval
    idle: bool = True  # use IMAP IDLE in `serve` when the server offers it
    max_body_bytes: int = 64 * 1024
    max_mail_bytes: int = 1024 * 1024  # what is read of a mail at most
    send_attempts: int = 12  # then an outbox mail is marked failed (after ~2 days)
    # Sender checks: the authserv-id of the Authentication-Results header the
    # moderator's own mail server stamps ("" = none is trusted), and how often an
    # address registered for no seat is answered: daily (once a day) | never
    authserv_id: str = ""
    stranger_replies: str = "daily"
    seat_mails_per_hour: int = 30  # accepted mails per seat and hour (pbem.guard)
    max_commands: int = 20  # command lines per mail
    send_lease_seconds: float = 300.0  # a worker's claim on an outbox batch it is sending
    # Speed: games a worker keeps loaded (least recently used dropped first), and
    # where compiled mail templates are kept between processes ("" = a per-user
    # folder in the system temp dir, "off" = none)
    game_cache_size: int = 1000
    template_cache: str = ""
    # The hour (UTC, 0-23) of the daily digest to seats whose mail setting is
    # `daily` (pbem.mail_settings); sent by the first deadline pass at or after it
    digest_hour: int = 7
    extra: Mapping[str, Any] = field(default_factory=dict)

    def sqlalchemy_url(self) -> str:
        """The database URL: `database_url`, else SQLite at `db_path`."""
        if self.database_url:
            url = self.database_url
            if url.startswith("postgresql://"):
                url = "postgresql+psycopg://" + url[len("postgresql://"):]
            elif url.startswith("postgres://"):
                url = "postgresql+psycopg://" + url[len("postgres://"):]
            return url
        return f"sqlite:///{self.db_path}"

    @property
    def moderator_domain(self) -> str:
        return self.moderator_address.rpartition("@")[2]

    @property
    def moderator_local(self) -> str:
        return self.moderator_address.rpartition("@")[0]

    def reply_address(self, token: str) -> str:
        """The per-seat reply address: moderator+<token>@domain."""
        return f"{self.moderator_local}+{token}@{self.moderator_domain}"


_FIELDS = {f.name: f for f in dataclasses.fields(Config) if f.name != "extra"}


def _convert(name: str, value: Any) -> Any:
    kind = type(getattr(Config(), name))
    try:
        if kind is bool:
            if isinstance(value, bool):
                return value
            return str(value).strip().lower() in ("1", "true", "yes", "on")
        if kind is Path:
            return Path(value)
        return kind(value)
    except (TypeError, ValueError) as e:
        raise ConfigError(f"setting {name}: cannot read {value!r} as {kind.__name__}") from e


def load_config(env: Mapping[str, str] | None = None, **overrides: Any) -> Config:
    """Settings from the config file, then the environment, then `overrides`.

    Raises:
        ConfigError: an unreadable file or value.
    """
    env = os.environ if env is None else env
    values: dict[str, Any] = {}
    path = env.get("PBEM_CONFIG")
    file = Path(path) if path else Path("pbem.toml")
    if path or file.exists():
        try:
            data = tomllib.loads(file.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as e:
            raise ConfigError(f"config file {file}: {e}") from e
        for key, value in data.items():
            if key not in _FIELDS:
                raise ConfigError(f"config file {file}: unknown setting {key!r}")
            values[key] = _convert(key, value)
    for name in _FIELDS:
        var = f"PBEM_{name.upper()}"
        if var in env:
            values[name] = _convert(name, env[var])
    if "database_url" not in values and env.get("DATABASE_URL"):
        values["database_url"] = env["DATABASE_URL"]
    if "db_path" not in values and env.get("PBEM_DB"):
        values["db_path"] = Path(env["PBEM_DB"])
    values.update({k: v for k, v in overrides.items() if v is not None})
    cfg = Config(**values)
    if cfg.transport not in ("files", "imap"):
        raise ConfigError(f"transport must be 'files' or 'imap', not {cfg.transport!r}")
    for name in ("imap_tls", "smtp_tls"):
        if getattr(cfg, name) not in ("starttls", "ssl", "none"):
            raise ConfigError(f"{name} must be starttls, ssl or none")
    if cfg.stranger_replies not in ("daily", "never"):
        raise ConfigError("stranger_replies must be daily or never")
    if not 0 <= cfg.digest_hour <= 23:
        raise ConfigError(f"digest_hour must be an hour 0-23 (UTC), not {cfg.digest_hour}")
    if "@" not in cfg.moderator_address:
        raise ConfigError("moderator_address must be an email address")
    return cfg
