"""The documentation of every diagnostic code, read from docs/errors/README.md as installed.

The page ships in the wheel as the package data of `rulesc.docs_errors` (pyproject maps that
package onto docs/errors/, which holds no Python), so `rulesc explain CODE` and the rule descriptions of the SARIF
output work from an installed wheel as well as from the source tree, and there is one copy of
the page, the one people read.
"""

from __future__ import annotations

import difflib
import functools
import re
from importlib import resources
from pathlib import Path

import attrs

DOC_PACKAGE = "rulesc.docs_errors"
DOC_FILE = "README.md"
CODE = re.compile(r"R\d{4}")


SOURCE_TREE_PAGE = Path(__file__).resolve().parent.parent / "docs" / "errors" / DOC_FILE


@functools.lru_cache(maxsize=1)
def page() -> str:
    """The text of docs/errors/README.md: the installed package data, or in an editable install
    (whose import hooks do not reach a data-only package) the source tree's page."""
    try:
        return resources.files(DOC_PACKAGE).joinpath(DOC_FILE).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError):
        return SOURCE_TREE_PAGE.read_text(encoding="utf-8")


@attrs.frozen
class CodeInfo:
    code: str
    severity: str  # "error" | "warning"
    meaning: str  # the index's short line


@functools.lru_cache(maxsize=1)
def index() -> dict[str, CodeInfo]:
    """Every assigned code, from the page's index table, in its order."""
    out = {}
    for line in page().splitlines():
        m = re.match(r"\|\s*\[(R\d{4})\]\([^)]*\)\s*\|\s*(\w+)\s*\|\s*(.*?)\s*\|\s*$", line)
        if m:
            out[m.group(1)] = CodeInfo(m.group(1), m.group(2), m.group(3))
    return out


def entry(code: str) -> str | None:
    """The page's section for `code` (from its `### CODE` heading to the next heading), or None."""
    lines = page().splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip() == f"### {code}"), None)
    if start is None:
        return None
    end = next((j for j in range(start + 1, len(lines)) if re.match(r"#{1,3} ", lines[j]) or lines[j] == "---"),
               len(lines))
    return "\n".join(lines[start:end]).rstrip() + "\n"


def normalise(code: str) -> str:
    code = code.strip().upper()
    m = re.fullmatch(r"R?(\d{1,4})", code)
    return "R" + m.group(1).zfill(4) if m else code


def nearest(code: str) -> list[str]:
    return difflib.get_close_matches(code, list(index()), n=3, cutoff=0.6)
