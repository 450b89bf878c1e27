"""Is the From address vouched for by the moderator's own mail server?

A mail server that checks DMARC, DKIM or SPF records its findings in an
`Authentication-Results` header (RFC 8601) at the top of the mail, named by its
authserv-id. Headers further down may have been written by the sender, so only the
topmost header carrying the configured authserv-id counts. The header is parsed by
the `authres` package (method=result pairs and their properties).

A result vouches for the From address when it passed and is aligned with the From
domain: `dmarc=pass header.from=D`, `dkim=pass header.d=D`, `spf=pass
smtp.mailfrom=…@D`, where D is the From domain or (relaxed alignment, for dkim and
spf) a parent of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import authres

METHODS = ("dmarc", "dkim", "spf")
REQUIREMENTS = ("none", *METHODS)


@dataclass(frozen=True)
class Verdict:
    ok: bool
    reason: str  # why not, in words for the sender ("" when ok)


def _domain(value: str) -> str:
    return value.rpartition("@")[2].strip().strip(".").lower()


def _aligned(from_domain: str, domain: str, strict: bool) -> bool:
    if not domain:
        return False
    return from_domain == domain or (not strict and from_domain.endswith("." + domain))


def _authserv_id(value: str) -> str:
    """The authserv-id of a header that `authres` could not parse (its first word)."""
    words = value.split(";", 1)[0].split()
    return words[0].lower() if words else ""


def topmost(headers: Sequence[str], authserv_id: str) -> authres.AuthenticationResultsHeader \
        | str | None:
    """The topmost header with `authserv_id`, parsed; the raw text if it is unreadable;
    None if no header carries that id. `headers` are the values, top first."""
    want = authserv_id.lower()
    for value in headers:
        text = " ".join(value.split())
        try:
            parsed = authres.AuthenticationResultsHeader.parse_value(text)
        except authres.AuthResError:
            if _authserv_id(text) == want:
                return text
            continue
        if str(parsed.authserv_id).lower() == want:
            return parsed
    return None


def judge(headers: Sequence[str], authserv_id: str, method: str, from_addr: str) -> Verdict:
    """Whether the moderator's server found `method` passing and aligned with the
    domain of `from_addr`. `method` "none" always passes."""
    if method == "none":
        return Verdict(True, "")
    if method not in METHODS:
        raise ValueError(f"unknown sender check {method!r}")
    if not authserv_id:
        return Verdict(False, "the moderator cannot check senders (no authserv-id is set)")
    found = topmost(headers, authserv_id)
    if found is None:
        return Verdict(False, f"the moderator's mail server did not check your mail ({method})")
    if isinstance(found, str):
        return Verdict(False, "the moderator's mail server wrote an unreadable check result")
    from_domain = _domain(from_addr)
    results = [r for r in found.results if str(r.method).lower() == method]
    for r in results:
        if str(r.result).lower() != "pass":
            continue
        props = {(str(p.type).lower(), str(p.name).lower()): str(p.value)
                 for p in r.properties}
        if method == "dmarc":
            domain, strict = props.get(("header", "from"), ""), True
        elif method == "dkim":
            domain, strict = props.get(("header", "d"), ""), False
        else:
            domain, strict = props.get(("smtp", "mailfrom"), ""), False
        if _aligned(from_domain, _domain(domain), strict):
            return Verdict(True, "")
    if not results:
        return Verdict(False, f"the moderator's mail server found no {method} result")
    got = ", ".join(f"{method}={r.result}" for r in results)
    return Verdict(False, f"{got} at the moderator's mail server, not a pass aligned with "
                          f"the From domain {from_domain}")
