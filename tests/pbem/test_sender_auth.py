"""Authentication-Results: only the topmost header with the moderator's authserv-id
counts, and only a pass aligned with the From domain vouches for the sender."""

from __future__ import annotations

import pytest

from pbem.sender_auth import judge

ID = "mx.pbem.test"
FROM = "anna@example.org"


def ok(headers: list[str], method: str = "dmarc", sender: str = FROM) -> bool:
    return judge(headers, ID, method, sender).ok


def test_passing_aligned_results() -> None:
    assert ok([f"{ID}; dmarc=pass (p=reject) header.from=example.org"])
    assert ok([f"{ID}; dkim=pass header.d=example.org header.i=@example.org"], "dkim")
    assert ok([f"{ID}; spf=pass smtp.mailfrom=anna@example.org"], "spf")
    # relaxed alignment: a parent domain's signature vouches for a subdomain (not dmarc)
    assert ok([f"{ID}; dkim=pass header.d=example.org"], "dkim", "anna@mail.example.org")
    assert ok(["MX.PBEM.TEST;\r\n\tdmarc=pass\r\n header.from=example.org"])  # folded


def test_failing_missing_and_unaligned() -> None:
    assert not ok([f"{ID}; dmarc=fail header.from=example.org"])
    assert not ok([f"{ID}; spf=pass smtp.mailfrom=x@example.org"])  # no dmarc result
    assert not ok([f"{ID}; dmarc=pass header.from=evil.example"])  # another domain
    assert not ok([f"{ID}; dkim=pass header.d=evil.example"], "dkim")
    assert not ok([f"{ID}; dkim=pass header.d=ample.org"], "dkim")  # not a parent domain
    assert not ok([f"{ID}; spf=softfail smtp.mailfrom=anna@example.org"], "spf")
    assert not ok([f"{ID}; dmarc=pass header.from=org"], sender="anna@example.org")
    assert not ok([])  # the server stamped nothing
    assert not ok([f"{ID}; none"])
    reason = judge([f"{ID}; dmarc=fail header.from=example.org"], ID, "dmarc", FROM).reason
    assert "dmarc=fail" in reason


def test_forged_headers_below_the_servers_own_do_not_count() -> None:
    forged = f"{ID}; dmarc=pass header.from=example.org"
    assert not ok([f"{ID}; dmarc=fail header.from=example.org", forged])
    # a header with another authserv-id on top is someone else's: skipped
    assert not ok(["other.example; dmarc=pass header.from=example.org",
                   f"{ID}; dmarc=fail header.from=example.org", forged])
    # ...but ours decides even when another id stands above it
    assert ok(["other.example; dmarc=fail header.from=example.org",
               f"{ID}; dmarc=pass header.from=example.org"])


def test_unreadable_or_unconfigured_fails_closed() -> None:
    assert not ok([f"{ID}; dmarc=pass header.from=example.org (unclosed"])
    assert not ok([f"{ID}; ;;;", f"{ID}; dmarc=pass header.from=example.org"])
    assert not judge([f"{ID}; dmarc=pass header.from=example.org"], "", "dmarc", FROM).ok
    assert judge([], "", "none", FROM).ok
    with pytest.raises(ValueError):
        judge([], ID, "arc", FROM)
