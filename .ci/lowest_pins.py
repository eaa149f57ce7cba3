"""Print the lowest versions pyproject.toml allows (`name==X` for each `name>=X`): the base
dependencies and the extras named on the command line. The CI's lowest-pins job installs them."""

from __future__ import annotations

import re
import sys
from pathlib import Path

text = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8")


def array(name: str) -> list[str]:
    one_line = re.search(rf"^{re.escape(name)} = \[(.*)\]$", text, re.M)
    m = one_line or re.search(rf"^{re.escape(name)} = \[\n(.*?)^\]", text, re.M | re.S)
    if m is None:
        sys.exit(f"pyproject.toml has no {name} array")
    return re.findall(r'"([^"]+)"', m.group(1))


pins = []
for req in array("dependencies") + [r for extra in sys.argv[1:] for r in array(extra)]:
    m = re.fullmatch(r"([A-Za-z0-9_.\-\[\]]+)>=([^,;\s]+)", req)
    if m is None:
        sys.exit(f"{req!r}: every dependency needs a lower bound written name>=X")
    pins.append(f"{m.group(1)}=={m.group(2)}")
print(" ".join(pins))
