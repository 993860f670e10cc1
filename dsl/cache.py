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

The same folder keeps the AST of each rules file parsed (`load_ast`, `store_ast`), as Python keeps
a module's bytecode: `rulesc check --static` on a file that has not changed since the last run
loads its tree instead of loading the parser and parsing. An entry is named by the file's path and
starts with the hash of everything the tree depends on: the file's text and path (the spans name
it), the source of this package (grammar, parser, transformer, AST classes), and the versions of
Lark, attrs and Python; an entry that does not match, or cannot be loaded, is ignored and the file
is parsed. Only files that parse without error are kept (a syntax error is always found afresh),
and the folder keeps at most MAX_AST_ENTRIES trees (compressed: 80 kB for the largest game), the least
recently used going first.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import pickle
import sys
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from attr import _make as attrs_make  # attrs's class builder, whose code the cached trees depend on

from . import ast

if TYPE_CHECKING:  # Lark is imported when a parser is built, not to load a cached tree
    from lark import Lark

CACHE_ENV = "RULESC_CACHE_DIR"
MAX_AST_ENTRIES = 256


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
    from lark import __version__ as lark_version
    text = f"{key}\nlark {lark_version}\npython {sys.version_info[0]}.{sys.version_info[1]}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _cache_folder() -> Path | None:
    """rulesc's cache folder, created; None if there can be none."""
    folder = user_cache_dir()
    if folder is None:
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder


def parser_cache_file(key: str) -> Path | None:
    """The cache file for a parser described by `key` (its grammar and options), its folder
    created; None if there can be none."""
    folder = _cache_folder()
    return None if folder is None else folder / f"parser-{_digest(key)[:24]}.pickle"


def cached_parser(key: str, build: Callable[[], Lark]) -> Lark:
    """The parser `build()` makes, its tables loaded from the cache file for `key` if there is a
    good one, else built and saved there for the next run. The file starts with the whole hash of
    the key, checked before the rest is loaded."""
    from lark import Lark
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
        def write(f) -> None:
            f.write(stamp)
            parser.save(f)
        _write(path, write)
    return parser


def _write(path: Path, write: Callable) -> bool:
    """Write a cache file through `write(file)`: under a scratch name, renamed into place, so that
    runs in parallel never read a half-written one. False (and nothing left behind) if it failed."""
    scratch = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        with open(scratch, "wb") as f:
            write(f)
        os.replace(scratch, path)
        return True
    except Exception:  # noqa: BLE001 - no cache this time (a full disk, a read-only folder...)
        try:
            os.unlink(scratch)
        except OSError:
            pass
        return False


# ---- the parsed trees of rules files -----------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _code_digest() -> str:
    """What a parsed tree depends on besides the file: this package's source (the grammar, the
    parser, the transformer, the AST classes; every file of it, to be safe), the versions of Lark
    and Python, and attrs's code (how its classes pickle). They are read from the packages' files:
    importing Lark, or asking the installed packages' metadata for a version, would cost what the
    cache saves."""
    h = hashlib.sha256()
    folder = Path(__file__).resolve().parent
    for part in sorted([*folder.glob("*.py"), *folder.glob("*.lark")]):
        h.update(part.name.encode("utf-8") + b"\0" + part.read_bytes() + b"\0")
    spec = importlib.util.find_spec("lark")
    if spec is not None and spec.origin:
        h.update(Path(spec.origin).read_bytes())  # lark/__init__.py, which states its __version__
    h.update(Path(attrs_make.__file__).read_bytes())
    h.update(f"python {sys.version}".encode("utf-8"))
    return h.hexdigest()


def ast_cache_file(path: str) -> Path | None:
    """The cache entry for the rules file at `path` (as written: the tree's spans name it), its
    folder created; None if there can be none."""
    folder = _cache_folder()
    if folder is None:
        return None
    name = hashlib.sha256(f"{os.path.abspath(path)}\0{path}".encode("utf-8", "surrogatepass")).hexdigest()
    return folder / f"ast-{name[:24]}.pickle"


def _ast_stamp(path: str, text: str) -> bytes:
    h = hashlib.sha256(_code_digest().encode("ascii"))
    h.update(f"\0{path}\0".encode("utf-8", "surrogatepass"))
    h.update(text.encode("utf-8", "surrogatepass"))
    return h.hexdigest().encode("ascii") + b"\n"


def load_ast(path: str, text: str) -> ast.RulesFile | None:
    """The tree `store_ast` kept for this file with exactly this text, or None (no entry, another
    text or version, a damaged entry, no cache)."""
    try:
        entry = ast_cache_file(path)
        if entry is None:
            return None
        with open(entry, "rb") as f:
            if f.readline() != _ast_stamp(path, text):
                return None
            tree = pickle.loads(zlib.decompress(f.read()))
    except Exception:  # noqa: BLE001 - missing, damaged, or unreadable: the file is parsed instead
        return None
    if not isinstance(tree, ast.RulesFile) or tree.path != path or tree.source != text:
        return None
    try:
        os.utime(entry)  # recently used: the last to be pruned
    except OSError:
        pass
    return tree


def store_ast(path: str, text: str, tree: ast.RulesFile) -> None:
    """Keep the tree of the file at `path` with this text for the next run (quietly nothing when
    there is no cache, or it cannot be written); prune the folder to MAX_AST_ENTRIES trees."""
    entry = ast_cache_file(path)
    if entry is None:
        return
    try:
        stamp = _ast_stamp(path, text)
        data = zlib.compress(pickle.dumps(tree, protocol=pickle.HIGHEST_PROTOCOL), 1)  # a fifth of the size
    except Exception:  # noqa: BLE001 - a tree too deep to pickle, say: it is parsed again next time
        return
    if _write(entry, lambda f: (f.write(stamp), f.write(data))):
        _prune(entry.parent)


def _prune(folder: Path) -> None:
    """Remove the least recently used trees beyond MAX_AST_ENTRIES (another run may be removing
    them too: whatever is already gone is no matter)."""
    try:
        entries = list(folder.glob("ast-*.pickle"))
        if len(entries) <= MAX_AST_ENTRIES:
            return
        dated = []
        for entry in entries:
            try:
                dated.append((entry.stat().st_mtime, entry.name, entry))
            except OSError:
                pass
        dated.sort()
        for _, _, entry in dated[:len(dated) - MAX_AST_ENTRIES]:
            try:
                entry.unlink()
            except OSError:
                pass
    except OSError:
        pass
