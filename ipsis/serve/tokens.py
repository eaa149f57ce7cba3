"""``--tokens FILE``: bearer tokens mapped to user names, and the loopback-only rule.

The file is a JSON object ``{"TOKEN": "user", ...}`` or lines ``TOKEN USER`` (``#`` starts a
comment). Each request then carries ``Authorization: Bearer TOKEN`` and is made as that user:
it sees only the stored sources the user may read, exactly like ``--user`` on the CLI.

>>> parse_tokens('# team\\ns3cr3t-token-alice alice\\n', "tokens.txt")
{'s3cr3t-token-alice': 'alice'}
>>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("0.0.0.0")
(True, True, False)
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import socket
from pathlib import Path

from ipsis.errors import InputError

MIN_TOKEN_LENGTH = 16


def parse_tokens(text: str, name: str) -> dict[str, str]:
    """Tokens -> user names from the text of a tokens file (JSON object or ``TOKEN USER`` lines)."""
    stripped = text.lstrip("\ufeff").strip()
    pairs: list[tuple[str, str, str]] = []
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            msg = f"{name}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
            raise InputError(msg) from None
        for token, user in data.items():
            if not isinstance(user, str):
                msg = f'{name}: the user of a token must be a string, e.g. {{"TOKEN": "alice"}}'
                raise InputError(msg)
            pairs.append((token, user, "an entry"))
    else:
        for i, line in enumerate(stripped.splitlines(), 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) != 2:
                msg = f"{name}: line {i} must be 'TOKEN USER' (two words), got {len(parts)} word(s)"
                raise InputError(msg)
            pairs.append((parts[0], parts[1], f"line {i}"))
    out: dict[str, str] = {}
    for token, user, where in pairs:
        if len(token) < MIN_TOKEN_LENGTH:
            msg = f"{name}: {where} has a token of {len(token)} characters; use at least {MIN_TOKEN_LENGTH} random ones"
            raise InputError(msg)
        if not user.strip():
            msg = f"{name}: {where} has an empty user name"
            raise InputError(msg)
        if token in out:
            msg = f"{name}: {where} repeats a token; each token names one user"
            raise InputError(msg)
        out[token] = user
    if not out:
        msg = f"{name}: no tokens; write one 'TOKEN USER' line per user"
        raise InputError(msg)
    return out


def load_tokens(path: str | Path) -> dict[str, str]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        msg = f"{p}: {exc.strerror or exc}; pass a readable tokens file"
        raise InputError(msg) from None
    return parse_tokens(text, str(p))


def user_for(tokens: dict[str, str], header: str | None) -> str | None:
    """The user of an ``Authorization: Bearer TOKEN`` header, or None (compared in constant time)."""
    if not header:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    given = token.strip().encode()
    found = None
    for known, user in tokens.items():
        if hmac.compare_digest(known.encode(), given):
            found = user
    return found


def is_loopback(host: str) -> bool:
    """True when every address ``host`` resolves to is a loopback address."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return bool(infos) and all(ipaddress.ip_address(str(i[4][0]).split("%")[0]).is_loopback for i in infos)
