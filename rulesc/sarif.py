"""`rulesc check --format sarif`: the diagnostics as a SARIF 2.1.0 log, for code-scanning tools.

One run of one tool: `tool.driver` lists a reporting descriptor (a "rule") for every registered
diagnostic code (dsl/codes.py), with its name, its summary as short description and its docs/errors
entry as help, plus `invariant` for an invariant the property tests broke; each result names its rule by id and index, has the
diagnostic's level and message (with its help and notes), the file and region of its span, and
its secondary labels as related locations, its suggested fixes as SARIF fixes. Columns count code points, as spans do.
"""

from __future__ import annotations

from pathlib import Path

from . import explain
from .dsl import codes, fixes

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
VERSION = "2.1.0"
INFORMATION_URI = "https://pypi.org/project/rulesc/"
INVARIANT = "invariant"
LEVEL = {"error": "error", "warning": "warning", "note": "note"}


def _artifact(path: str) -> dict:
    p = Path(path)
    if p.is_absolute():
        return {"uri": p.as_uri()}
    return {"uri": p.as_posix(), "uriBaseId": "%SRCROOT%"}


def _region(span) -> dict | None:
    if span is None:
        return None
    line, column = max(span.line, 1), max(span.column, 1)
    end_line = max(span.end_line, line)
    end_column = max(span.end_column, 1)
    if end_line == line and end_column <= column:
        end_column = column + 1
    return {"startLine": line, "startColumn": column, "endLine": end_line, "endColumn": end_column}


def _location(path: str, span, message: str | None = None, id_: int | None = None) -> dict:
    physical = {"artifactLocation": _artifact(path)}
    region = _region(span)
    if region is not None:
        physical["region"] = region
    loc = {"physicalLocation": physical}
    if id_ is not None:
        loc["id"] = id_
    if message:
        loc["message"] = {"text": message}
    return loc


def _fixes(d) -> list[dict]:
    """The diagnostic's fixes as SARIF fixes: each one replacement in the diagnostic's file, at the
    exact region of the text it replaces (read from the file; a fix whose text is not there is left out)."""
    if not d.fixes:
        return []
    try:
        source = Path(d.path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    out = []
    for fix in d.fixes:
        where = fixes.region(source, fix)
        if where is not None:
            out.append({"description": {"text": f"replace `{fix.original}` with `{fix.replacement}` ({fix.applicability})"},
                        "artifactChanges": [{"artifactLocation": _artifact(d.path), "replacements": [
                            {"deletedRegion": _region(where), "insertedContent": {"text": fix.replacement}}]}]})
    return out


class Log:
    """A SARIF log being built: add diagnostics and property failures, then `to_json()`."""

    def __init__(self, version: str = "0"):
        self.version = version
        self.rules: list[dict] = []
        self.rule_index: dict[str, int] = {}
        self.results: list[dict] = []
        self.failed_to_run = False
        for code in codes.REGISTRY.values():
            self._rule(code.code, code.name, code.summary, code.severity, explain.section(code))
        self._rule(INVARIANT, "broken-invariant", "an invariant broke in a game the property tests generated", "error",
                   "The property tests (`rulesc check` without `--static`) played a game in which a built-in "
                   "or declared invariant broke; the message names the invariant and the location the rule "
                   "whose event broke it. `rulesc check FILE` prints the minimal game and the command that "
                   "replays it.")

    def _rule(self, code: str, name: str, meaning: str, severity: str, help_text: str) -> None:
        rule = {"id": code, "name": name, "shortDescription": {"text": meaning},
                "defaultConfiguration": {"level": LEVEL.get(severity, "error")},
                "help": {"text": help_text, "markdown": help_text}}
        self.rule_index[code] = len(self.rules)
        self.rules.append(rule)

    def add_diagnostic(self, d) -> None:
        index = self.rule_index[d.code]  # every code is registered, so every code has its rule
        text = d.message
        for note in d.notes:
            text += f"\nnote: {note}"
        if d.help:
            text += f"\nhelp: {d.help}"
        result = {"ruleId": d.code, "ruleIndex": index, "level": LEVEL.get(d.severity, "error"),
                  "message": {"text": text}, "locations": [_location(d.path, d.span)]}
        related = [_location(label.path or d.path, label.span, label.message, i + 1)
                   for i, label in enumerate(d.labels)]
        if related:
            result["relatedLocations"] = related
        suggested = _fixes(d)
        if suggested:
            result["fixes"] = suggested
        self.results.append(result)

    def add_failure(self, path: str, failure) -> None:
        """An invariant the property tests broke (`rulesc.properties.failures.Failure`)."""
        text = f"invariant `{failure.invariant}` broke: {failure.message}"
        line = failure.rule.line if failure.rule else 0
        location = _location(failure.rule.file or path if line else path, None)
        if line:
            location["physicalLocation"]["region"] = {"startLine": line}
        self.results.append({"ruleId": INVARIANT, "ruleIndex": self.rule_index[INVARIANT], "level": "error",
                             "message": {"text": text}, "locations": [location]})

    def to_json(self) -> dict:
        return {
            "$schema": SCHEMA,
            "version": VERSION,
            "runs": [{
                "tool": {"driver": {"name": "rulesc", "version": self.version, "informationUri": INFORMATION_URI,
                                    "rules": self.rules}},
                "invocations": [{"executionSuccessful": not self.failed_to_run}],
                "columnKind": "unicodeCodePoints",
                "results": self.results,
            }],
        }
