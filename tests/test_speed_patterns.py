"""The kept programs of regular expressions (issue 36, speed): a pattern whose text is a kept one's
in another order (made from a set: a new order in each process) does not rewrite the file at
exit; it still matches as the re module makes it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from .conftest import ROOT

SCRIPT = """
import json, re, sys
from pathlib import Path
from generator.lazy import keep_patterns
kept = keep_patterns(Path(sys.argv[1]))
out = [re.compile(p).findall("a-b{c}~d") for p in json.loads(sys.argv[2])]
print(json.dumps({"out": out, "new": kept.new}))
"""


def run(kept: Path, patterns: list[str], tmp_path: Path) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    cmd = [sys.executable, "-c", SCRIPT, str(kept), json.dumps(patterns)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_a_kept_pattern_in_another_order_does_not_rewrite_the_file(tmp_path: Path) -> None:
    kept = tmp_path / "programs"
    assert run(kept, [r"[\-{}~]", r"(a|b)"], tmp_path) == {
        "out": [["-", "{", "}", "~"], ["a", "b"]],
        "new": 2,
    }
    written = kept.read_bytes()
    assert run(kept, [r"[~}{\-]"], tmp_path) == {"out": [["-", "{", "}", "~"]], "new": 0}
    assert kept.read_bytes() == written  # not saved again
    assert run(kept, [r"[\-{}~d]"], tmp_path) == {"out": [["-", "{", "}", "~", "d"]], "new": 1}  # another set
    assert kept.read_bytes() != written
