"""Reading a .rules file from disk, with a clear diagnostic for every way that can fail.

Missing files, directories, binary or non-UTF-8 content, empty files and files far
larger than any rulebook all become `RulesError`s with code R00xx, so the CLI never
shows a traceback for bad input.
"""

from __future__ import annotations

import stat
from pathlib import Path

from . import codes
from .diagnostics import RulesError, Span

MAX_BYTES = 1_000_000  # the longest rulebook we know fits in 60 kB; 1 MB is generous


def _fail(code: codes.Code, message: str, path: str, span: Span | None = None, help: str | None = None):
    raise RulesError([code.diagnostic(message, path, span, help=help)])


def read_source(path: str | Path) -> str:
    """Return the text of a rules file, or raise RulesError explaining why it cannot be read."""
    path = Path(path)
    shown = str(path)
    if not path.exists():
        _fail(codes.NO_SUCH_FILE, f"no such file `{shown}`", shown, help="check the path; rules files end in `.rules`")
    if path.is_dir():
        _fail(codes.PATH_IS_A_DIRECTORY, f"`{shown}` is a directory, not a rules file", shown,
              help="name a `.rules` file inside it")
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):  # /dev/zero never ends, a FIFO blocks until someone writes
            _fail(codes.UNREADABLE_FILE, "cannot read file: it is a device, pipe or socket, not a file", shown,
                  help="rules files are ordinary text files")
        if info.st_size > MAX_BYTES:
            _fail(codes.FILE_TOO_LARGE, f"file is too large ({info.st_size:,} bytes; the limit is {MAX_BYTES:,})", shown,
                  help="a rules file is text written by hand; is this the right file?")
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)  # bounded, should the file grow while it is read
        if len(data) > MAX_BYTES:
            _fail(codes.FILE_TOO_LARGE, f"file is too large (over {MAX_BYTES:,} bytes)", shown,
                  help="a rules file is text written by hand; is this the right file?")
    except OSError as exc:
        _fail(codes.UNREADABLE_FILE, f"cannot read file: {exc.strerror or exc}", shown)
    return decode_source(data, shown)


def decode_source(data: bytes, shown: str) -> str:
    if b"\x00" in data:
        offset = data.index(b"\x00")
        line = data.count(b"\n", 0, offset) + 1
        _fail(codes.BINARY_FILE, "file is binary, not text (it contains NUL bytes)", shown,
              Span.point(line, offset - (data.rfind(b"\n", 0, offset) + 1) + 1),
              help="rules files are UTF-8 text")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        _fail(codes.NOT_UTF8, f"file is not valid UTF-8 (byte 0x{data[exc.start]:02x})", shown,
              Span.point(line, column), help="save the file as UTF-8")
    if not text.strip():
        _fail(codes.EMPTY_FILE, "file is empty", shown, help='a rules file starts with `game "Name":`')
    return text
