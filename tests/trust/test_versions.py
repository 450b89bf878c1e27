"""Finished games stored from earlier engine versions still give the same result.

`tests/fixtures/versions/<engine version>/` holds games exported by the moderator
under that version (made by scripts/make_version_fixtures.py) and `expected.json`
with their standings and final chain heads. Each is verified and replayed with the
current engine: a release that would change a finished game's result, or any event
of it, fails here. (A deliberate change raises engine.__version__ and adds fixtures
of the new version; the old ones stay, and the test then says which game changed.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import __version__
from pbem.logs import replay_log
from pbem.verify import verify_log

VERSIONS = Path(__file__).resolve().parents[1] / "fixtures" / "versions"
FIXTURES = sorted(VERSIONS.glob("*/*.log"))


def _expected(path: Path) -> dict[str, object]:
    data: dict[str, dict[str, object]] = json.loads(
        (path.parent / "expected.json").read_text("utf-8"))
    return data[path.name]


def test_fixtures_cover_player_counts_undo_and_this_version() -> None:
    assert (VERSIONS / __version__).is_dir(), \
        f"no fixtures of engine {__version__}: run scripts/make_version_fixtures.py"
    cases = [_expected(p) for p in FIXTURES]
    assert {c["players"] for c in cases} >= {3, 4, 5}
    assert any(c["undos"] for c in cases)


@pytest.mark.parametrize("path", FIXTURES, ids=[f"{p.parent.name}/{p.name}" for p in FIXTURES])
def test_a_stored_game_verifies_with_the_same_result(path: Path) -> None:
    want = _expected(path)
    text = path.read_text("utf-8")
    r = verify_log(text, file=str(path))
    assert r.ok, r.summary()
    assert r.engine == path.parent.name  # the stamp the game was judged under
    assert f"v{r.version} sha256:{r.head}" == want["head"]
    assert [[s.name, s.fame, s.florins] for s in r.standings()] == want["standings"]
    assert list(r.winners) == want["winners"] and r.undos == want["undos"]
    replayed = replay_log(text, file=str(path))
    assert replayed.ok and replayed.finished, replayed.error
    assert [[s.name, s.fame, s.florins] for s in replayed.standings()] == want["standings"]
