"""Which rules implement which rulebook paragraph: a table generated from the citations (`§ "…"`).

A rulebook is plain text. Its sections are its headings when it has a table of contents (a line
`Table of Contents` followed by bulleted titles, each found again as a line of the body, in
order), else its paragraphs (a one-page rulebook). A section's paragraphs are its blocks of text
between blank lines (a block ending in `:` goes with the next, as a list's lead-in), each named by
its first words. A citation belongs to the section that holds its quoted text: the quote is cut
at its ellipses (`...`, `…`) and each piece is looked for, with case, punctuation and spacing
ignored; the section holding the most pieces wins (the first, on a tie), and within it each
paragraph holding a piece. A citation none of whose pieces is in the rulebook is a paraphrase,
listed apart so that it can be made a quotation.

The table lists every paragraph, so one that no rule cites shows as such, and beside the rules
and scenarios that cite it, what they mark `assumed` (a value the rulebook does not give, with
the file's reason). `rulesc citations FILE --rulebook TEXT` prints it; `--update DOC.md` writes
it into DOC.md between the markers `<!-- citations begin -->` and `<!-- citations end -->`
(tests/test_citations.py checks that the game pages are current).
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs

from rulesc.dsl import ast, walk
from rulesc.dsl.parsed import parse_file
from rulesc.dsl.variants import load_file

BEGIN = "<!-- citations begin -->"
END = "<!-- citations end -->"
_BULLET = re.compile(r"^\s*[•*\-]\s+(.*\S)\s*$")
_WORD = re.compile(r"[a-z0-9$%]+")
_ELLIPSIS = re.compile(r"\.\.\.|…")


@attrs.frozen
class Paragraph:
    title: str  # its first words
    text: str  # normalised: lower-case words separated by single spaces


@attrs.frozen
class Section:
    title: str
    text: str  # normalised, as a paragraph's
    paragraphs: tuple[Paragraph, ...] = ()
    heading: bool = True  # a heading of the rulebook, not one of its paragraphs standing alone


@attrs.frozen
class Citation:
    file: str
    line: int
    label: str  # the cited line's code, without its citation
    quote: str
    scenario: bool  # a worked example (scenario) rather than a rule
    assumed: str | None = None  # what the cited line marks assumed: its reason, or the columns of a row


def normalise(text: str) -> str:
    text = text.lower().replace("’", "'").replace("‘", "'")
    return " ".join(_WORD.findall(text.replace("'", "")))


def sections(text: str) -> list[Section]:
    """The rulebook's sections: its headings if it has a table of contents, else its paragraphs."""
    lines = text.splitlines()
    titles, body = _contents(lines)
    if titles:
        return _by_headings(lines, titles, body)
    return _by_paragraphs(text)


def _contents(lines: list[str]) -> tuple[list[str], int]:
    """The titles of the table of contents, and the index of the first line after it."""
    starts = [i for i, line in enumerate(lines) if line.strip() == "Table of Contents"]
    if not starts:
        return [], 0
    titles = []
    at = starts[-1] + 1
    for i in range(at, len(lines)):
        if not lines[i].strip():
            continue
        m = _BULLET.match(lines[i])
        if not m:
            break
        titles.append(m.group(1))
        at = i + 1
    return titles, at


def _by_headings(lines: list[str], titles: list[str], at: int) -> list[Section]:
    found = []  # (line index, title)
    for title in titles:
        for i in range(at, len(lines)):
            if lines[i].strip() == title:
                found.append((i, title))
                at = i + 1
                break
    result = []
    for k, (i, title) in enumerate(found):
        end = found[k + 1][0] if k + 1 < len(found) else len(lines)
        body = "\n".join(lines[i + 1:end])
        result.append(Section(title, normalise(body), tuple(_paragraphs(body))))
    return result


def _paragraphs(body: str) -> list[Paragraph]:
    """The blocks of text between blank lines; a lead-in ending in `:` joins the block after it, and a
    block of one word (a number the layout left alone) is not a paragraph."""
    result, lead = [], ""
    for block in re.split(r"\n\s*\n", body):
        block = (lead + "\n" + block).strip() if lead else block.strip()
        lead = ""
        if block.endswith(":"):
            lead = block
            continue
        words = block.split()
        if len(words) < 2:
            continue
        result.append(Paragraph(" ".join(words[:7]) + ("…" if len(words) > 7 else ""), normalise(block)))
    if lead:
        result.append(Paragraph(" ".join(lead.split()[:7]), normalise(lead)))
    return result


def _by_paragraphs(text: str) -> list[Section]:
    result = []
    for para in re.split(r"\n\s*\n", text):
        words = para.split()
        if len(words) < 6 or "." not in para:  # a signature or a stray word, not a rule
            continue
        title = " ".join(words[:7]) + ("…" if len(words) > 7 else "")
        one = Paragraph(title, normalise(para))
        result.append(Section(title, one.text, (one,), heading=False))
    return result


def citations(path) -> list[Citation]:
    """Every citation of a rules file as written (its variations' too: `remove phase bump   § "…"`) and,
    for a variant, of the rules it keeps of its base (`extends`; not those it removes or replaces), each
    at its own file and line, the base's first: the line, its code and the quote."""
    own = str(path)
    sources: dict = {}  # file -> its lines, for the labels
    found: list[Citation] = []

    def label(file: str, line: int) -> str:
        if file not in sources:
            sources[file] = Path(file).read_text(encoding="utf-8").splitlines()
        source = sources[file]
        code = source[line - 1].strip() if 0 < line <= len(source) else ""
        code = re.split(r"\s(?:§|cite\s+\"|assumed\b)", " " + code, maxsplit=1)[0].strip()
        return code if len(code) <= 60 else code[:59].rstrip() + "…"

    def visit(node, owner, in_scenario: bool, inherited: bool):
        if inherited and node.span.file in (None, own):  # the file's own: found as written
            return
        scenario = in_scenario or isinstance(node, ast.Scenario)
        cite, assumed = None, None
        if isinstance(node, ast.Row):
            cite = node.cite
            if node.assumed_columns is not None:
                columns = [f"{a.column}" + (f"[{a.index}]" if a.index is not None else "") for a in node.assumed_columns]
                assumed = ", ".join(columns) if columns else "the row"
        elif getattr(node, "meta", None) is not None:
            cite = node.meta.cite
            if node.meta.assumed:
                assumed = node.meta.assumed_note or "assumed"
        if cite:
            # A block's citation is its header's: `on land Corner:   § "…"`.
            at = owner if isinstance(node, ast.Block) and owner is not None else node
            file = at.span.file or own
            found.append(Citation(Path(file).name, at.span.line, label(file, at.span.line), cite, scenario, assumed))
        for child in walk.children(node):
            visit(child, node, scenario, inherited)

    for decl in parse_file(path).decls:
        visit(decl, None, False, False)
    if any(isinstance(decl, ast.Extends) for decl in parse_file(path).decls):
        for decl in load_file(path).decls:
            visit(decl, None, False, True)
    return sorted(set(found), key=lambda c: (c.file == Path(own).name, c.line, c.quote))


def _pieces(quote: str) -> list[str]:
    pieces = [normalise(p) for p in _ELLIPSIS.split(quote)]
    return [p for p in pieces if len(p.split()) >= 2 or (p and len(pieces) == 1)]


def _holds(text: str, piece: str) -> bool:
    return f" {piece} " in f" {text} "


def place(quote: str, secs: list[Section]) -> Section | None:
    """The section that holds the quoted text (see the module's docstring), or None."""
    pieces = _pieces(quote)
    best, score = None, 0
    for sec in secs:
        hits = sum(1 for p in pieces if _holds(sec.text, p))
        if hits > score:
            best, score = sec, hits
    return best


def paragraphs(quote: str, sec: Section) -> list[Paragraph]:
    """The paragraphs of `sec` that hold a piece of the quote; a piece that runs from one paragraph
    into the next belongs to the one holding its first words (the first paragraph, failing that)."""
    found: list[Paragraph] = []
    for piece in _pieces(quote):
        holders = [p for p in sec.paragraphs if _holds(p.text, piece)]
        if not holders:
            start = " ".join(piece.split()[:4])
            holders = [p for p in sec.paragraphs if _holds(p.text, start)][:1] or list(sec.paragraphs[:1])
        found += [p for p in holders if p not in found]
    return found


def table(rules_paths, rulebook_path) -> str:
    """The markdown table: each rulebook paragraph (under its section's heading), the rules and the
    scenarios that cite it, and what those mark assumed. The first rules file is the game; the
    others (its variants) are named with their lines."""
    if isinstance(rules_paths, (str, Path)):
        rules_paths = [rules_paths]
    secs = sections(Path(rulebook_path).read_text(encoding="utf-8"))
    cited: dict = {}  # (section title, paragraph index) -> citations
    unplaced = []
    main = Path(rules_paths[0]).name
    for c in [c for path in rules_paths for c in citations(path)]:
        sec = place(c.quote, secs)
        if sec is None:
            unplaced.append(c)
            continue
        for para in paragraphs(c.quote, sec):
            cited.setdefault((sec.title, sec.paragraphs.index(para)), []).append(c)

    def where(c: Citation) -> str:
        return str(c.line) if c.file == main else f"{c.file}:{c.line}"

    def cell(items, show=lambda c: f"`{c.label}` ({where(c)})") -> str:
        seen, out = set(), []
        for c in items:
            key = (c.file, c.line)
            if key not in seen:
                seen.add(key)
                out.append(show(c).replace("|", "\\|"))
        return "<br>".join(out)

    def assumed(c: Citation) -> str:  # the line is in a column beside: its number and the reason are enough
        return f"line {where(c)}" + ("" if c.assumed == "assumed" else f": {c.assumed}")

    names = ", ".join(f"`{Path(p).name}`" for p in rules_paths)
    lines = [f"Generated by `rulesc citations` from the citations (`§ \"…\"`) of {names}, against the "
             f"rulebook `{Path(rulebook_path).name}`; bare line numbers are those of `{main}`. Every paragraph "
             "of the rulebook is a row (a section's heading in bold above its paragraphs); one that no rule "
             "cites says so. The last column is what the citing lines mark `assumed`: values the rulebook "
             "does not give, with the file's reason.",
             "",
             "| rulebook paragraph | rules that cite it | worked examples (scenarios) | assumed there |",
             "| --- | --- | --- | --- |"]
    count = {"rule": 0, "example": 0, "none": 0}
    for s in secs:
        if s.heading:
            lines.append(f"| **{s.title}** | | | |")
        for i, para in enumerate(s.paragraphs):
            items = cited.get((s.title, i), [])
            rules = [c for c in items if not c.scenario]
            r = cell(rules)
            e = cell([c for c in items if c.scenario])
            a = cell([c for c in items if c.assumed], assumed)
            count["rule" if r else "example" if e else "none"] += 1
            lines.append(f"| {para.title} | {r or '**no rule cites this paragraph**'} | {e} | {a} |")
    total = sum(count.values())
    lines += ["", f"{total} paragraphs: {count['rule']} cited by a rule, {count['example']} by a worked example "
              f"only, {count['none']} by neither."]
    if unplaced:
        lines += ["", "Citations whose text is not in this rulebook (paraphrases, or other sources):", ""]
        for c in unplaced:
            lines.append(f"- line {where(c)}, `{c.label}`: \"{c.quote}\"".replace("|", "\\|"))
    return "\n".join(lines) + "\n"


def update(doc_path, text: str) -> bool:
    """Write `text` between the markers of `doc_path`; True if the file changed."""
    doc = Path(doc_path).read_text(encoding="utf-8")
    if BEGIN not in doc or END not in doc:
        raise ValueError(f"{doc_path} has no `{BEGIN}` … `{END}` markers")
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    new = f"{head}{BEGIN}\n{text}{END}{tail}"
    if new == doc:
        return False
    Path(doc_path).write_text(new, encoding="utf-8")
    return True


def current(doc_path) -> str | None:
    """The table now between the markers of `doc_path` (None without markers)."""
    doc = Path(doc_path).read_text(encoding="utf-8")
    if BEGIN not in doc or END not in doc:
        return None
    return doc.split(BEGIN, 1)[1].split(END, 1)[0].lstrip("\n")
