"""`rulesc test --format junit`: scenario results as JUnit XML, the report format CI systems read.

One `<testsuite>` per rules file given, one `<testcase>` per scenario (its `classname` the file the
scenario is written in, which for a variant may be its base; `file` and `line` where it is), a
`<failure>` for a scenario whose expectations failed (the first as the message, all of them, each
with its line, as the text), `<skipped>` for a base's scenario a variant changes (CHANGED, as `rulesc check`
and `rulesc test` say: information, not a failure), and an `<error>` test case for a file that could not be
loaded. No
times are written, so the same rules give the same report byte for byte.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import attrs

from rulesc.report import is_inherited


@attrs.define
class Suite:
    path: str
    results: list = attrs.Factory(list)  # of interpreter.scenario.ScenarioResult
    error: str | None = None  # why the file could not be loaded


def _classname(path: str) -> str:
    p = Path(path)
    return (p.with_suffix("").as_posix()).replace("/", ".").lstrip(".")


def to_xml(suites: list[Suite]) -> str:
    root = ET.Element("testsuites", name="rulesc test")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in suites:
        s = ET.SubElement(root, "testsuite", name=suite.path)
        tests = failures = errors = skipped = 0
        if suite.error is not None:
            case = ET.SubElement(s, "testcase", classname=_classname(suite.path), name="load the rules",
                                 file=suite.path)
            first = suite.error.splitlines()[0] if suite.error else "the rules could not be loaded"
            ET.SubElement(case, "error", message=first, type="rules").text = suite.error
            tests, errors = 1, 1
        for result in suite.results:
            where = result.file or suite.path
            case = ET.SubElement(s, "testcase", classname=_classname(where), name=result.title, file=where,
                                 line=str(result.line))
            tests += 1
            if not result.passed:
                lines = [f"{f.where(where)}: {f.message}" + "".join(f"\n  note: {n}" for n in f.notes)
                         for f in result.failures]
                if is_inherited(suite.path, result):
                    skipped += 1
                    ET.SubElement(case, "skipped", message="CHANGED by the house rule: "
                                  + result.failures[0].message).text = "\n".join(lines)
                    continue
                failures += 1
                ET.SubElement(case, "failure", message=result.failures[0].message, type="scenario").text = \
                    "\n".join(lines)
        s.set("tests", str(tests))
        s.set("failures", str(failures))
        s.set("errors", str(errors))
        s.set("skipped", str(skipped))
        totals["tests"] += tests
        totals["failures"] += failures
        totals["errors"] += errors
        totals["skipped"] += skipped
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
