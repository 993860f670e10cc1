"""The docs are a doctest: every whole rules file and every shell line they show runs, and passes.

The pages read are README.md and the hand-written pages of docs/ (docs/*.md: the tutorial, the
language reference, the internals). Generated pages are left out, each because another test owns
it: docs/games/*.md are written by `rulesc doc` from the shipped games, which tests/test_docs_pages.py
regenerates and compares; docs/errors/README.md is written from dsl/codes.py, whose examples
tests/test_codes.py checks for their real output.

What a page shows, and what is done with it:

- A ```rules block that is a whole rules file: one that starts (after comments) with a `game "…":`
  header or with `extends`. It is written into the page's folder, under the name the page gives it
  (a `<!-- doctest: file NAME -->` line before the block; otherwise `PAGE-LINE.rules`), and checked:
  `rulesc check --static` in the fast suite, the full `rulesc check` (scenarios, the property search
  with fewer examples, whole games) in the slow one; both must exit 0. The files of one page are
  written in the page's order into one folder, so a variant's `extends "market.rules"` finds its base.
  Not whole files: a block that is a `game` header and nothing else (language.md shows the header
  settings so), and fragments without a header, which tests/test_highlighting.py reads. A block with
  a `...` line is an excerpt of the file that its `<!-- doctest: excerpt of PATH -->` names: its
  lines, citations aside, must be lines of that file, in order.
- `<!-- doctest: append to NAME -->` before a fragment: the page tells the reader to add the block
  at the end of NAME (after a blank line), and so does the test, for the commands after it.
- `<!-- doctest: the block below replaces lines A-B of NAME for the next command -->`: a slip shown
  on purpose; the next command runs on the file so changed, and the file is put back after it.
- A shell line: `$ COMMAND` in a ``` block (the lines after it, up to the next `$`, are its output), or
  each line of a ```sh/```bash/```console block (README's command lists: no output shown). Each line is
  a test of its own, named by its page and line, run in the page's folder, which holds the page's
  files and links to games/, examples/ and docs/rulebooks/ (a copy of docs/games/, since
  `rulesc doc` writes there), as the repository root does. It must exit 0, or 1 where its shown
  output has an `error[`. Its output, where shown, must be the output now, after both are normalised
  (`normalise`: timings, the temporary folder); a `...` line in the shown output stands for any lines.
  A command whose output is not shown runs with fewer games (`reduced`), and one that reads a file
  an earlier line of its block writes (`--replay game.jsonl`) runs that line first.

After a deliberate change to what rulesc prints, `python tests/test_docs_examples.py [PAGE...]` writes
the output of now into the pages, in place of what they show (`rewrite`); review it with `git diff`.
"""

from __future__ import annotations

import contextlib
import difflib
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import clirun
from clirun import rulesc
from rulesc import cli

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

# Shell lines shown that are not run, each with why. Keep this small.
SKIP = {
    "scripts/demo.sh": "sets up .venv (pip, maybe apt-get) and is the CI's main job: .ci/run runs it",
    "scripts/test.sh": "runs this whole suite; .ci/run runs it",
    ". .venv/bin/activate": "a change to the reader's shell, not a command with a result",
    "git diff": "reviews the reader's working tree after --bless; nothing of rulesc",
    "rulesc lsp": "a server that waits on stdin for an editor; tests/test_lsp.py talks to it",
}

# A command whose output the page does not show plays at most this many games (`-n`, `--games`).
FEW_GAMES = 20
PLAYS_GAMES = {"run", "play", "simulate", "diff", "sweep"}
FENCE = re.compile(r"^(\s*)```(\w*)\s*$")
DIRECTIVE = re.compile(r"^\s*<!--\s*doctest:\s*(.*?)\s*-->\s*$")


@dataclass
class Block:
    page: Path
    line: int  # the line of the opening fence, from 1
    lang: str
    text: str
    directive: str | None = None

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT).as_posix()}:{self.line}"


@dataclass
class Command:
    block: Block
    line: int  # the command's own line on the page
    text: str
    output: list[str] | None  # the lines shown after it, or None where none are shown
    before: list["Command"] = field(default_factory=list)  # earlier lines of its block it needs

    @property
    def where(self) -> str:
        return f"{self.block.page.relative_to(ROOT).as_posix()}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The fenced code blocks of a page, in order, each with the doctest directive just before it."""
    found, lines = [], page.read_text(encoding="utf-8").splitlines()
    i, directive = 0, None
    while i < len(lines):
        d = DIRECTIVE.match(lines[i])
        if d:
            directive = d.group(1)
        m = FENCE.match(lines[i])
        if m:
            indent, lang, start = m.group(1), m.group(2), i
            body = []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
                i += 1
            found.append(Block(page, start + 1, lang, "\n".join(body) + "\n", directive))
            directive = None
        i += 1
    return found


def declarations(text: str) -> list[str]:
    """The first line of each top-level declaration (column 1, not a comment)."""
    return [ln for ln in text.splitlines() if ln and not ln[0].isspace() and not ln.startswith("#")]


def is_whole_file(block: Block) -> bool:
    heads = declarations(block.text)
    if block.lang != "rules" or not heads or any(ln.strip() == "..." for ln in block.text.splitlines()):
        return False
    if heads[0].startswith("extends "):
        return True
    return heads[0].startswith("game ") and len(heads) > 1  # a header alone shows the header


def is_excerpt(block: Block) -> bool:
    """A whole file but for its `...` lines (a fragment's `...` is only a fragment's)."""
    heads = declarations(block.text)
    return (block.lang == "rules" and bool(heads) and heads[0].startswith(("extends ", "game "))
            and len(heads) > 1 and any(ln.strip() == "..." for ln in block.text.splitlines()))


def file_name(block: Block) -> str:
    if block.directive and block.directive.startswith("file "):
        return block.directive.split(None, 1)[1]
    return f"{block.page.stem}-{block.line}.rules"


def commands(block: Block) -> list[Command]:
    lines = block.text.splitlines()
    found: list[Command] = []
    if block.lang in ("sh", "bash", "console", "shell"):
        for k, ln in enumerate(lines):
            words = shlex.split(ln, comments=True)
            if words:
                found.append(Command(block, block.line + 1 + k, ln.split("  #")[0].strip(), None))
    elif block.lang in ("", "text") and any(ln.startswith("$ ") for ln in lines):
        for k, ln in enumerate(lines):
            if ln.startswith("$ "):
                found.append(Command(block, block.line + 1 + k, ln[2:].strip(), []))
            elif found:
                found[-1].output.append(ln)
        for c in found:
            if not c.output:
                c.output = None
    for k, c in enumerate(found):  # the earlier lines of the block that write a file this one reads
        reads = set(shlex.split(c.text, comments=True)) - writes(c)
        c.before = [e for e in found[:k] if writes(e) & reads]
    return found


def writes(cmd: Command) -> set[str]:
    """The files a shell line writes: after `--log`, `-o` or `>`."""
    words = shlex.split(cmd.text, comments=True)
    return {b for a, b in zip(words, words[1:]) if a in ("--log", "-o", ">") and b != "-"}


def skipped(cmd: Command) -> str | None:
    for start, why in SKIP.items():
        if cmd.text == start or cmd.text.startswith(start + " "):
            return why
    return None


BLOCKS = [b for page in PAGES for b in blocks(page)]
WHOLE = [b for b in BLOCKS if is_whole_file(b)]
EXCERPTS = [b for b in BLOCKS if is_excerpt(b)]
COMMANDS = [c for b in BLOCKS for c in commands(b)]
RUN = [c for c in COMMANDS if not skipped(c)]


# ---- the page's folder ----------------------------------------------------------------------------------------


def folder_for(page: Path, upto: int, tmp: Path) -> Path:
    """A folder laid out as the repository root, holding the page's files as they are at line `upto`."""
    (tmp / "games").symlink_to(ROOT / "games")
    (tmp / "examples").symlink_to(ROOT / "examples")
    (tmp / "docs").mkdir()
    (tmp / "docs" / "rulebooks").symlink_to(ROOT / "docs" / "rulebooks")
    shutil.copytree(ROOT / "docs" / "games", tmp / "docs" / "games")
    for block in blocks(page):
        if block.line >= upto:
            break
        d = block.directive or ""
        if is_whole_file(block):
            (tmp / file_name(block)).write_text(block.text, encoding="utf-8")
        elif d.startswith("append to "):
            target = tmp / d.split("append to ", 1)[1]
            target.write_text(target.read_text(encoding="utf-8") + "\n" + block.text, encoding="utf-8")
    return tmp


def slip_for(cmd: Command) -> tuple[Path, int, int, str] | None:
    """The slip shown just before the command's block: (file, first line, last line, the block)."""
    page = blocks(cmd.block.page)
    k = next(i for i, b in enumerate(page) if b.line == cmd.block.line)
    if k == 0:
        return None
    prev = page[k - 1]
    m = re.match(r"the block below replaces lines (\d+)-(\d+) of (\S+) for the next command", prev.directive or "")
    if not m:
        return None
    return Path(m.group(3)), int(m.group(1)), int(m.group(2)), prev.text


# ---- running a shell line -------------------------------------------------------------------------------------


def reduced(words: list[str]) -> list[str]:
    """Fewer games for a command whose output is not shown: the same command, in seconds."""
    words = list(words)
    for i, w in enumerate(words[:-1]):
        if w in ("-n", "--games") and words[i + 1].isdigit():
            words[i + 1] = str(min(int(words[i + 1]), FEW_GAMES))
    if words[:1] == ["check"] and "--static" not in words:
        if "--examples" not in words:
            words[1:1] = ["--examples", "10"]
        if "--games" not in words:
            words[1:1] = ["--games", "5"]
    return words


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str


def in_one_stream(args: list[str], cwd: Path) -> Result:
    """`rulesc ARGS` in this process, stdout and stderr in one stream, in the order a terminal shows them."""
    both = clirun._Output()
    here = os.getcwd()
    try:
        os.chdir(cwd)
        with clirun.no_hang(300), contextlib.redirect_stdout(both), contextlib.redirect_stderr(both):
            try:
                code = cli.main(args)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        os.chdir(here)
    return Result(code, both.getvalue(), "")


def run(cmd: Command, cwd: Path, shown: bool) -> Result:
    words = shlex.split(cmd.text, comments=True)
    out_to = None
    if ">" in words:
        k = words.index(">")
        out_to, words = words[k + 1], words[:k]
    words = [x for w in words for x in (sorted(glob.glob(w, root_dir=cwd)) or [w] if "*" in w else [w])]
    if words[0] == "head":  # the one shell tool the pages use
        n = int(words[1].lstrip("-"))
        text = (cwd / words[2]).read_text(encoding="utf-8")
        result = Result(0, "".join(text.splitlines(keepends=True)[:n]), "")
    elif words[0] != "rulesc":
        pytest.fail(f"{cmd.where}: `{cmd.text}` is neither a rulesc command nor in SKIP")
    else:
        args = words[1:] if shown else reduced(words[1:])
        if args[:1] == ["play"]:  # at the terminal: the reader types `quit` at the first prompt
            p = subprocess.run([sys.executable, "-m", "rulesc", *args], cwd=cwd, input="quit\n",
                               capture_output=True, text=True, timeout=300)
            result = Result(p.returncode, p.stdout, p.stderr)
        else:
            result = in_one_stream(args, cwd)
    if out_to:
        (cwd / out_to).write_text(result.stdout, encoding="utf-8")
        result.stdout = ""
    return result


# What differs from run to run and machine to machine: a time, a rate, the number of worker processes.
RUN_DEPENDENT = [
    (re.compile(r"\b\d+(\.\d+)?\s?(ms|s|seconds?|minutes?)\b"), "<time>"),
    (re.compile(r"\b[\d,]+(\.\d+)?\s(games|player-turns)/s\b"), r"<rate> \2/s"),
    (re.compile(r" \(\d+ jobs?\)"), ""),  # played in one process or several: the same output
]


def normalise(text: str, folder: Path) -> list[str]:
    """The lines of `text` less what may differ between runs (RUN_DEPENDENT, the temporary folder,
    trailing blanks), so that what the page shows and what a run prints now can be compared."""
    text = text.replace(str(folder) + "/", "").replace(str(folder), ".")
    lines = []
    for ln in text.splitlines():
        for pattern, into in RUN_DEPENDENT:
            ln = pattern.sub(into, ln)
        lines.append(ln.rstrip())
    return lines


def matches(shown: list[str], now: list[str]) -> bool:
    """`shown` equals `now`, where a `...` line of `shown` stands for any lines (none included)."""
    if not shown:
        return not now
    if shown[0].strip() in ("...", "…"):
        return any(matches(shown[1:], now[k:]) for k in range(len(now) + 1))
    return bool(now) and shown[0] == now[0] and matches(shown[1:], now[1:])


def expected_status(cmd: Command) -> int:
    return 1 if cmd.output and any("error[" in ln for ln in cmd.output) else 0


def slow(cmd: Command) -> bool:
    words = shlex.split(cmd.text, comments=True)
    return words[:1] == ["rulesc"] and (
        words[1] in PLAYS_GAMES or (words[1] == "check" and "--static" not in words)
        or (words[1] == "doc"))


def params(cmds):
    return [pytest.param(c, id=c.where, marks=[pytest.mark.slow] if slow(c) else []) for c in cmds]


# ---- the tests ------------------------------------------------------------------------------------------------


def test_the_pages_show_what_this_test_reads():
    """A page that stops showing its files or commands fails here, not silently; SKIP names only
    lines a page shows."""
    assert all(any(c.text == s or c.text.startswith(s + " ") for c in COMMANDS) for s in SKIP), \
        [s for s in SKIP if not any(c.text.startswith(s) for c in COMMANDS)]
    assert {b.where.split(":")[0] for b in WHOLE} >= {"README.md", "docs/language.md", "docs/tutorial.md"}
    assert {file_name(b) for b in WHOLE if b.page.name == "tutorial.md"} == {"market.rules", "house.rules"}
    assert len([c for c in COMMANDS if c.output is not None]) >= 10  # the tutorial's, with their output
    assert {c.where.split(":")[0] for c in RUN} >= {"README.md", "docs/tutorial.md", "docs/internals.md"}


@pytest.mark.parametrize("block", WHOLE, ids=[b.where for b in WHOLE])
def test_a_whole_rules_file_checks_clean_statically(block, tmp_path):
    folder = folder_for(block.page, block.line, tmp_path)
    name = file_name(block)
    (folder / name).write_text(block.text, encoding="utf-8")
    r = rulesc("check", "--static", name, cwd=folder)
    assert r.returncode == 0, f"{block.where}: `rulesc check --static {name}`\n{r.stdout}{r.stderr}"


@pytest.mark.slow
@pytest.mark.parametrize("block", WHOLE, ids=[b.where for b in WHOLE])
def test_a_whole_rules_file_passes_the_full_check(block, tmp_path):
    folder = folder_for(block.page, block.line, tmp_path)
    name = file_name(block)
    (folder / name).write_text(block.text, encoding="utf-8")
    r = rulesc("check", "--examples", "20", "--games", "10", name, cwd=folder)
    assert r.returncode == 0, f"{block.where}: `rulesc check {name}`\n{r.stdout}{r.stderr}"


@pytest.mark.parametrize("block", EXCERPTS, ids=[b.where for b in EXCERPTS])
def test_an_excerpt_is_of_the_file_it_names(block):
    d = block.directive or ""
    assert d.startswith("excerpt of "), f"{block.where}: a block with `...` names its file: <!-- doctest: excerpt of PATH -->"
    source = (ROOT / d.split("excerpt of ", 1)[1]).read_text(encoding="utf-8")

    def code(ln: str) -> str:
        return re.sub(r"\s+(§|cite)\s+\".*$", "", ln).rstrip()

    lines = iter(code(ln) for ln in source.splitlines())
    for ln in block.text.splitlines():
        if ln.strip() in ("", "..."):
            continue
        assert code(ln) in lines, f"{block.where}: `{ln.strip()}` is not in {d[11:]} (or not in this order)"


@pytest.mark.parametrize("cmd", params(RUN))
def test_a_shell_line_runs_as_shown(cmd, tmp_path):
    folder = folder_for(cmd.block.page, cmd.block.line, tmp_path)
    for earlier in cmd.before:
        assert run(earlier, folder, earlier.output is not None).returncode == 0, earlier.where
    slip = slip_for(cmd)
    kept = None
    if slip:
        path, first, last, text = slip
        kept = (folder / path).read_text(encoding="utf-8")
        lines = kept.splitlines(keepends=True)
        (folder / path).write_text("".join(lines[:first - 1]) + text + "".join(lines[last:]), encoding="utf-8")
    result = run(cmd, folder, cmd.output is not None)
    if result.returncode == 2 and "cannot render" in result.stdout + result.stderr and not shutil.which("dot"):
        pytest.skip("Graphviz's `dot` is not installed")
    if slip:
        (folder / slip[0]).write_text(kept, encoding="utf-8")
    said = f"{cmd.where}: `{cmd.text}` exited {result.returncode}\n{result.stdout}{result.stderr}"
    assert "Traceback" not in result.stdout + result.stderr, said
    assert result.returncode == expected_status(cmd), said
    if cmd.output is not None:
        shown, now = normalise("\n".join(cmd.output), folder), normalise(result.stdout + result.stderr, folder)
        while shown and not shown[-1]:
            shown.pop()
        assert matches(shown, now), f"{cmd.where}: `{cmd.text}` prints, now:\n" + "\n".join(
            difflib.unified_diff(shown, now, "the page", "now", lineterm="")) + \
            "\n(if the change is meant: `python tests/test_docs_examples.py` writes it into the page)"


KNOWN = [r"file \S+\.rules", r"append to \S+\.rules", r"excerpt of \S+\.rules",
         r"the block below replaces lines \d+-\d+ of \S+\.rules for the next command"]


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_doctest_line_of_a_page_is_understood(page):
    """A misspelt `<!-- doctest: ... -->` would be ignored, and its block tested as something else."""
    for k, ln in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        d = DIRECTIVE.match(ln)
        if d:
            assert any(re.fullmatch(form, d.group(1)) for form in KNOWN), f"{page.name}:{k}: {d.group(1)}"
            after = [b for b in blocks(page) if b.line > k][:1]
            assert after and after[0].directive == d.group(1) and after[0].lang == "rules", \
                f"{page.name}:{k}: a doctest line goes right before the ```rules block it is about"


# ---- the shown output, written again --------------------------------------------------------------------------


def rewrite(page: Path) -> int:
    """Write the output each shell line of `page` prints now in place of what the page shows (where it
    shows any), keeping a `...` where the page elides lines; the number of outputs written again.
    The output is written as a run prints it (a timing too), less the temporary folder."""
    lines = page.read_text(encoding="utf-8").splitlines()
    shown_cmds = [c for b in blocks(page) for c in commands(b) if c.output is not None and not skipped(c)]
    changed = 0
    for cmd in reversed(shown_cmds):  # from the bottom, so that the lines above keep their numbers
        with tempfile.TemporaryDirectory() as tmp:
            folder = folder_for(cmd.block.page, cmd.block.line, Path(tmp))
            for earlier in cmd.before:
                run(earlier, folder, earlier.output is not None)
            slip = slip_for(cmd)
            if slip:
                path, first, last, text = slip
                kept = (folder / path).read_text(encoding="utf-8").splitlines(keepends=True)
                (folder / path).write_text("".join(kept[:first - 1]) + text + "".join(kept[last:]), encoding="utf-8")
            result = run(cmd, folder, True)
            now = [ln.rstrip() for ln in (result.stdout + result.stderr).replace(str(folder) + "/", "").splitlines()]
        shown = cmd.output
        if matches(normalise("\n".join(shown), Path(tmp)), normalise("\n".join(now), Path(tmp))):
            continue  # the same but for a time, a rate or the jobs: the page keeps its figures
        cut = [k for k, ln in enumerate(shown) if ln.strip() in ("...", "…")]
        if cut:
            k = cut[0]
            tail = len(shown) - k - 1
            new = now[:k] + shown[k:k + 1] + (now[len(now) - tail:] if tail else [])
        else:
            new = now
        lines[cmd.line:cmd.line + len(shown)] = new
        changed += 1
    page.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return changed


if __name__ == "__main__":
    # `python tests/test_docs_examples.py [PAGE...]`: after a deliberate change to what rulesc prints, write
    # the new output into the pages (all, or those named); review it with `git diff docs README.md`.
    for name in sys.argv[1:] or [p.relative_to(ROOT).as_posix() for p in PAGES]:
        print(f"{name}: {rewrite(ROOT / name)} outputs written again")


# ---- fragments of the language reference, parsed in context (#32) -----------------------------------

FRAGMENT_CONTEXTS = ("{}", "procedure doc_fragment():\n{i}", 'scenario "doc":\n{i}', "turn:\n{i}",
                     "deck Doc reshuffle:\n{i}", 'procedure doc_fragment():\n    choose "doc" by current:\n{ii}')
# Fragments that mix contexts (a card beside a handler), show a template (`NAME(x: Type, …)`), expressions
# alone, or the designed `skip`: parsed by none of the contexts, named by their first line.
UNPARSED_FRAGMENTS = {
    "player:", "card MasterKey", "skip next turn of player", "card NearestUtility", "define NAME(x: Type",
    "procedure NAME(x: Type", 'extends "wheeler.rules"', "all(q in p.series", 'phase move "Roll and move"',
    "action buy_car(c: Car) own turn before move", "deck WheelerDealer once:", "turn:", "bank $5,000,000 then ious",
}


def _parses_in_some_context(block: str) -> bool:
    import textwrap
    from rulesc.dsl.diagnostics import RulesError
    from rulesc.dsl.parser import parse_text
    body = textwrap.dedent(block)
    for dots in ("", r"\1pass"):  # `...` stands for lines left out: dropped, or a statement
        text = re.sub(r"(?m)^(\s*)\.\.\.\s*$", dots, body)
        for context in FRAGMENT_CONTEXTS:
            source = context.replace("{i}", textwrap.indent(text, "    ")).replace("{ii}", textwrap.indent(text, "        "))
            try:
                parse_text((text if context == "{}" else source) + "\n", "fragment.rules")
                return True
            except RulesError:
                pass
    return False


def test_every_fragment_of_the_language_reference_parses_in_context():
    """Each ```rules block of docs/language.md (whole files are checked above) parses as a file, or as the
    body of a procedure, a scenario, a turn, a deck or a choice: a slip in an example is found."""
    page = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    unparsed = []
    for block in re.findall(r"```rules\n(.*?)```", page, re.S):
        first = block.strip().splitlines()[0].strip()
        if "designed" in block or any(first.startswith(known) for known in UNPARSED_FRAGMENTS):
            continue
        if not _parses_in_some_context(block):
            unparsed.append(first)
    assert not unparsed, f"fragments of docs/language.md that parse in no context: {unparsed}"
