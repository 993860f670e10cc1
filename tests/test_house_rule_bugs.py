"""Issue #11: the mistakes a house-rule author makes, each a file in tests/properties_data/ that
`rulesc check` must catch, at the author's line, with a failure that can be replayed."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from rulesc.cli import main

HERE = Path(__file__).resolve().parent
DATA = HERE / "properties_data"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


# ---- variants: static diagnostics ----------------------------------------------------------------

def test_a_wrongly_typed_override_is_reported_at_the_variant_line(capsys):
    path = DATA / "override_wrong_type.rules"
    code, out, err = run(capsys, "check", "--static", path)
    assert code == 1
    assert re.search(r"override_wrong_type\.rules:5:\d+: error\[R0514\]: `override param starting_cash` "
                     r"gives a `count`, but the base's `starting_cash` is a `money`", err), err
    assert re.search(r"note: the base declares `starting_cash` as a `money` at .*finance\.rules:\d+", err), err
    code, out, _ = run(capsys, "check", "--static", "--format", "json", path)
    found = [d for d in json.loads(out)[0]["diagnostics"] if d["code"] == "R0514"]
    assert found and found[0]["path"].endswith("override_wrong_type.rules") and found[0]["span"]["line"] == 5
    assert found[0]["labels"][0]["path"].endswith("finance.rules")


def test_a_two_file_extends_cycle_names_both_files(capsys):
    code, out, err = run(capsys, "check", "--static", DATA / "cycle_a.rules")
    assert code == 1
    first = err.splitlines()[0]
    assert "error[R0512]" in first and first.startswith(str(DATA / "cycle_b.rules") + ":2:1")
    assert "`cycle_a.rules` extends `cycle_b.rules` extends `cycle_a.rules`" in first
    assert re.search(r"note: `cycle_a\.rules` extends `cycle_b\.rules` at .*cycle_a\.rules:2:1", err), err
