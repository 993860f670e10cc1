"""Where rulesc keeps what it can rebuild: the parser's tables, in the user's cache folder.

Building the LALR tables of the grammar takes longer than everything else `rulesc check
--static` does, and they only change with the grammar, so they are built once and saved
(`Lark.save`, loaded with `Lark.load`) in a file named by a hash of everything they depend on:
the grammar's text, the parser's options, and the versions of Lark and Python; the file starts
with that hash, checked again before loading. A changed grammar (an upgrade of rulesc, a
developer's edit) gets a file of its own. A file is written under a scratch name and renamed
into place, so runs in parallel never read a half-written one; a file that cannot be loaded is
rebuilt and replaced.

The folder is `$RULESC_CACHE_DIR` if set (set but empty: no cache at all), else the platform's
cache folder: `$XDG_CACHE_HOME/rulesc` or `~/.cache/rulesc` on Linux, `~/Library/Caches/rulesc`
on macOS, `%LOCALAPPDATA%\\rulesc\\Cache` on Windows. It is never the installed package (which may
be read-only); where no folder can be written, the tables are built on every run, as before.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Callable

from lark import Lark
from lark import __version__ as LARK_VERSION

CACHE_ENV = "RULESC_CACHE_DIR"


def user_cache_dir() -> Path | None:
    """rulesc's cache folder (not created here), or None if caching is turned off or there is no home."""
    configured = os.environ.get(CACHE_ENV)
    if configured is not None:
        return Path(configured) if configured else None
    try:
        if sys.platform == "win32":
            base = os.environ.get("LOCALAPPDATA")
            return Path(base) / "rulesc" / "Cache" if base else None
        if sys.platform == "darwin":
            return Path.home() / "Library" / "Caches" / "rulesc"
        xdg = os.environ.get("XDG_CACHE_HOME")
        return (Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache") / "rulesc"
    except (RuntimeError, KeyError, OSError):  # no home folder to be found
        return None


def _digest(key: str) -> str:
    text = f"{key}\nlark {LARK_VERSION}\npython {sys.version_info[0]}.{sys.version_info[1]}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parser_cache_file(key: str) -> Path | None:
    """The cache file for a parser described by `key` (its grammar and options), its folder
    created; None if there can be none."""
    folder = user_cache_dir()
    if folder is None:
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder / f"parser-{_digest(key)[:24]}.pickle"


def cached_parser(key: str, build: Callable[[], Lark]) -> Lark:
    """The parser `build()` makes, its tables loaded from the cache file for `key` if there is a
    good one, else built and saved there for the next run. The file starts with the whole hash of
    the key, checked before the rest is loaded."""
    path = parser_cache_file(key)
    stamp = _digest(key).encode("ascii") + b"\n"
    if path is not None and path.is_file():
        try:
            with open(path, "rb") as f:
                if f.readline() == stamp:
                    return Lark.load(f)
        except Exception:  # noqa: BLE001 - damaged, or from an incompatible version: rebuild it
            pass
    parser = build()
    if path is not None:
        scratch = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        try:
            with open(scratch, "wb") as f:
                f.write(stamp)
                parser.save(f)
            os.replace(scratch, path)
        except Exception:  # noqa: BLE001 - no cache this time (a full disk, a read-only folder...)
            try:
                os.unlink(scratch)
            except OSError:
                pass
    return parser
