"""A database that cannot be opened or written ends any moderator command with one
line on stderr and exit code 3, never a traceback (the installed `pbem`, in a
subprocess).

The read-only and full disks are tmpfs mounts in a private mount namespace
(`unshare -m`, root only), so nothing outlives the command.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

PBEM = Path(sys.executable).parent / "pbem"
EXIT_DATABASE = 3
PLAYERS = ["-p", "anna:anna@example.org", "-p", "bas:bas@example.org",
           "-p", "chris:chris@example.org"]
COMMANDS = {
    "init": ["init"],
    "poll": ["poll", "--once"],
    "status": ["status", "pof-1"],
    "new": ["new", "--game", "pof-2", *PLAYERS],
    "outbox": ["outbox"],
}


def clean_env(tmp: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PBEM_") and k != "DATABASE_URL"}
    env.update(PBEM_MAIL_DIR=str(tmp / "mail"), PBEM_MODERATOR_ADDRESS="moderator@example.org")
    env.update(extra)
    return env


def assert_one_line(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == EXIT_DATABASE, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pbem: database: "), result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_postgresql_where_nothing_listens(command: str, tmp_path: Path) -> None:
    url = f"postgresql://pbem:secret-password@127.0.0.1:{free_port()}/pbem"
    result = subprocess.run([str(PBEM), *COMMANDS[command]], capture_output=True, text=True,
                            env=clean_env(tmp_path, DATABASE_URL=url), cwd=tmp_path,
                            timeout=60)
    assert_one_line(result)
    assert "secret-password" not in result.stderr


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_database_folder_that_cannot_be_made(command: str, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder")
    result = subprocess.run([str(PBEM), *COMMANDS[command], "--db",
                             str(tmp_path / "file" / "db.sqlite")],
                            capture_output=True, text=True, env=clean_env(tmp_path),
                            cwd=tmp_path, timeout=60)
    assert_one_line(result)


MOUNT = """set -e
mount -t tmpfs -o size=1m tmpfs "$DIR"
cp "$SEED" "$DIR/db.sqlite"
case "$MODE" in
  ro) mount -o remount,ro "$DIR" ;;
  full) dd if=/dev/zero of="$DIR/fill" bs=4k 2>/dev/null || true ;;
esac
exec "$@" --db "$DIR/db.sqlite"
"""


@pytest.fixture(scope="module")
def seed_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with a game, and its outbox sent."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare for a private tmpfs mount")
    tmp = tmp_path_factory.mktemp("seed")
    db = tmp / "seed.sqlite"
    env = clean_env(tmp)
    for args in (["init"], ["new", "--game", "pof-1", *PLAYERS], ["poll", "--once"]):
        subprocess.run([str(PBEM), *args, "--db", str(db)], env=env, check=True,
                       capture_output=True, cwd=tmp, timeout=120)
    probe = subprocess.run(["unshare", "-m", "--propagation", "private", "mount", "-t",
                            "tmpfs", "tmpfs", str(tmp)], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {probe.stderr.decode()[:200]}")
    return db


@pytest.mark.parametrize("mode", ["ro", "full"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_read_only_or_full_disk(mode: str, command: str, seed_db: Path,
                                  tmp_path: Path) -> None:
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    env = clean_env(tmp_path, DIR=str(mnt), SEED=str(seed_db), MODE=mode)
    result = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", MOUNT,
                             "mount", str(PBEM), *COMMANDS[command]],
                            capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert_one_line(result)


def test_the_same_commands_work_on_a_writable_copy(seed_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    shutil.copy(seed_db, db)
    for args in COMMANDS.values():
        result = subprocess.run([str(PBEM), *args, "--db", str(db)], capture_output=True,
                                text=True, env=clean_env(tmp_path), cwd=tmp_path, timeout=60)
        assert result.returncode == 0, (args, result.stderr)
