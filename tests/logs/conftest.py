from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="session")
def example_path() -> Path:
    return FIXTURES / "princes-recorded-4p.log"


@pytest.fixture(scope="session")
def example_text(example_path: Path) -> str:
    return example_path.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def example_expected() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (FIXTURES / "princes-recorded-4p.expected.json").read_text(encoding="utf-8"))
    return data
