"""The source lines that rules point at, for the tools' reports (coverage, summaries, failures).

A rule is a `RuleRef` (or a span): the path of its file, as loaded, and a line. `RuleSources`
holds the text of every file a program came from (a variant's base too) by that path, so a
rule is quoted from its own file even when another file has the same base name. Reports
name a file by its base name, or by its path when two of the files share a base name.
"""

from __future__ import annotations

import collections
import os


class RuleSources:
    def __init__(self, sources: dict, main: str | None = None):
        """`sources`: path -> text of each file; `main`: the path of the file that was loaded."""
        self.main = main
        self.lines = {path: text.splitlines() for path, text in sources.items()}
        counts = collections.Counter(os.path.basename(path) for path in self.lines)
        self.names = {path: path if counts[os.path.basename(path)] > 1 else os.path.basename(path)
                      for path in self.lines}

    @classmethod
    def of(cls, program) -> "RuleSources":
        return cls(getattr(program, "sources", None) or {program.path: program.source}, program.path)

    def name(self, file: str) -> str:
        """How reports name the file: its base name, unless another file has the same one."""
        return self.names.get(file) or os.path.basename(file)

    def label(self, file: str, line: int) -> str:
        return f"{self.name(file)}:{line}"

    def line(self, file: str, line: int) -> str:
        """The text of line `line` of `file`, stripped; "" if there is none."""
        lines = self.lines.get(file, ())
        return lines[line - 1].strip() if 1 <= line <= len(lines) else ""

    def text(self, rule) -> str:
        """The line a `RuleRef` points at ("" for NO_RULE)."""
        return self.line(rule.file, rule.line) if rule else ""
