"""Versioned source ids: how ``--id`` and ``--version`` combine, and which version is newer.

A stored source version has a *full id*, the string records cite as ``source_id``. It is made
of a *name* and a *version*:

- ``returns-v1``: name ``returns``, version ``v1`` (a version ``v`` + digits joins with ``-``);
- ``lgpd@2019-07-08``: name ``lgpd``, version ``2019-07-08`` (any other version joins with ``@``);
- ``rfc7519``: name ``rfc7519``, no version (an unversioned source; a later one needs a version).

``--id`` may carry the version (``--id returns-v1``) or leave it to ``--version``
(``--id returns --version v1`` gives the same full id); giving both is refused when they disagree.

>>> compose_id("returns", "v2"), compose_id("lgpd", "2019-07-08"), compose_id("rfc7519", "")
('returns-v2', 'lgpd@2019-07-08', 'rfc7519')
>>> split_id("returns-v1"), split_id("lgpd@2019-07-08"), split_id("rfc7519")
(('returns', 'v1'), ('lgpd', '2019-07-08'), ('rfc7519', ''))
"""

from __future__ import annotations

import re
from datetime import date

from ipsis.errors import InputError

ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/+-]*")
VERSION_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")
NUMBERED = re.compile(r"v(\d+)")
_DASH_VERSION = re.compile(r"(?P<name>.+)-(?P<version>v\d+)")


def split_id(full_id: str) -> tuple[str, str]:
    """``(name, version)`` of a full id (version ``""`` when it has none)."""
    if "@" in full_id:
        name, _, version = full_id.partition("@")
        return name, version
    m = _DASH_VERSION.fullmatch(full_id)
    if m:
        return m["name"], m["version"]
    return full_id, ""


def compose_id(name: str, version: str) -> str:
    """The full id of ``name`` at ``version`` (see the module docstring)."""
    if not version:
        return name
    if NUMBERED.fullmatch(version):
        return f"{name}-{version}"
    return f"{name}@{version}"


def resolve_id(given_id: str, version: str | None) -> tuple[str, str, str]:
    """``(full_id, name, version)`` from ``--id`` and ``--version``; InputError when they clash.

    >>> resolve_id("returns", "v1"), resolve_id("returns-v1", None)[0], resolve_id("returns-v1", "v1")[0]
    (('returns-v1', 'returns', 'v1'), 'returns-v1', 'returns-v1')
    """
    if not ID_RE.fullmatch(given_id.partition("@")[0]) or given_id.count("@") > 1:
        msg = (
            f"--id {given_id!r}: use letters, digits and . _ : / + - (optionally @VERSION), "
            "starting with a letter or digit, e.g. --id returns-v1 or --id lgpd@2019-07-08"
        )
        raise InputError(msg)
    if "@" in given_id and not VERSION_RE.fullmatch(given_id.partition("@")[2]):
        msg = f"--id {given_id!r}: the version after @ is empty or malformed, e.g. lgpd@2019-07-08"
        raise InputError(msg)
    name, own = split_id(given_id)
    if version is not None:
        if not VERSION_RE.fullmatch(version):
            msg = f"--version {version!r}: use letters, digits and . _ + -, e.g. --version v2 or --version 2019-07-08"
            raise InputError(msg)
        if own and own != version:
            msg = f"--id {given_id} already names version {own}; pass --id {name} --version {version}"
            raise InputError(msg)
        own = version
    return compose_id(name, own), name, own


def version_key(version: str) -> tuple[object, ...]:
    """Sort key: no version first, then natural order (``v2`` < ``v10``; ISO dates in date order).

    >>> sorted(["v10", "v2", "", "v1"], key=version_key)
    ['', 'v1', 'v2', 'v10']
    >>> sorted(["2019-07-08", "2018-08-14"], key=version_key)
    ['2018-08-14', '2019-07-08']
    """
    parts = re.split(r"(\d+)", version)
    return (bool(version), *((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts if p))


def propose_version(existing: list[str], today: date | None = None) -> str:
    """A new version for a name whose versions are ``existing``.

    >>> propose_version(["v1", "v2"]), propose_version([""]), propose_version(["2019-07-08"], date(2024, 1, 2))
    ('v3', 'v2', '2024-01-02')
    """
    numbers = [int(m.group(1)) for v in existing if (m := NUMBERED.fullmatch(v))]
    if numbers:
        return f"v{max(numbers) + 1}"
    if any(re.fullmatch(r"\d{4}-\d{2}-\d{2}", v) for v in existing):
        candidate = (today or date.today()).isoformat()
        if candidate not in existing:
            return candidate
    return f"v{len(existing) + 1}"
