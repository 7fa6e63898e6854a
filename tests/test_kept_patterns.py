"""Regular expressions compiled from the programs an earlier process kept (issue 36, speed:
:func:`generator.lazy.keep_patterns`, a tenth of a second of every ``check``): the same patterns
as the re module makes; only this interpreter's programs, signed, valid and recently used."""

from __future__ import annotations

import _sre
import json
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator.lazy import KEPT_SAVES, PATTERNS_FORMAT
from generator.signing import read_signed, write_signed

from .conftest import ROOT

#: patterns of every kind: groups by name and number, flags inline and passed, bytes, lookarounds,
#: classes, repeats, backreferences, Unicode
PATTERNS = [
    (r"(?P<entry>\d+\.\d+-\d{4})\b", 0),
    (r"(?i)mlperf(?:®|\(R\))?\s+(inference|training)", 0),
    (r"^\s*#{1,6}\s+(.+?)\s*$", 8),  # re.M
    (r"(?<![\w.])[\u2212+\-]?\$?\d[\d,.]*(?:[%×]|x\b)?(?![\w])", 0),
    (r"(a|b)*?c{2,5}(?=d)", 2 | 16),  # re.I | re.S
    (r"(?x) (\w+) \s* = \s* (\1)  # a backreference", 0),
    (r"[^\x00-\x7f]+|\bGB300\b", 32 | 2),  # re.U | re.I
    (rb"[\x80-\xff]{2}|\.\.", 0),
]
TEXT = "See 6.1-0052 and MLPerf® Inference: 14,211 tokens/s (+37.9%), x = x; ## Heading\nGB300 ééé aCCCd"

SCRIPT = """
import json, re, sys
from pathlib import Path
from generator.lazy import keep_patterns
kept = keep_patterns(Path(sys.argv[1])) if sys.argv[1] != "-" else None
out = []
for p, f in json.loads(sys.argv[2]):
    p = p.encode("latin-1") if f < 0 else p
    c = re.compile(p, abs(f) if f >= 0 else 0)
    text = sys.argv[3].encode() if isinstance(p, bytes) else sys.argv[3]
    out.append([repr(c.pattern), c.flags, c.groups, sorted(c.groupindex.items()), repr([m.groups() or m.span() for m in c.finditer(text)])])
print(json.dumps({"out": out, "new": kept.new if kept else None, "programs": len(kept.programs) if kept else None}))
"""


def run(kept: Path | str, env: dict[str, str]) -> dict[str, object]:
    """One process compiling :data:`PATTERNS` (with the programs kept in *kept*, or ``-``: none)."""
    given = [[p.decode("latin-1"), -1] if isinstance(p, bytes) else [p, f] for p, f in PATTERNS]
    cmd = [sys.executable, "-c", SCRIPT, str(kept), json.dumps(given), TEXT]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.fixture()
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The environment of the processes, whose user cache (and signing key) this test's is too."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def tag() -> tuple[object, ...]:
    return (PATTERNS_FORMAT, sys.version, _sre.MAGIC, _sre.CODESIZE)


def test_a_second_process_makes_the_patterns_the_first_kept_and_they_match_the_same(
    tmp_path: Path, env: dict[str, str]
) -> None:
    kept = tmp_path / "programs"
    plain = run("-", env)
    first = run(kept, env)
    assert first["new"] == len(PATTERNS) and read_signed(kept) is not None
    second = run(kept, env)
    assert second["new"] == 0 and second["programs"] == len(PATTERNS)
    assert first["out"] == second["out"] == plain["out"]
    assert "6.1-0052" in json.dumps(plain["out"]) and "'x', 'x'" in json.dumps(plain["out"])


@pytest.mark.parametrize(
    "spoil",
    [
        "another interpreter",  # programs of another version of the engine mean nothing here
        "not a program",  # signed, of this interpreter, but code the engine refuses
        "unsigned",
        "not marshal",
    ],
)
def test_programs_not_of_this_interpreter_or_not_valid_are_never_used(
    tmp_path: Path, env: dict[str, str], spoil: str
) -> None:
    kept = tmp_path / "programs"
    pattern, flags = PATTERNS[0]
    bogus = (pattern, flags, [1, 2, 3], 0, {}, (None,))
    file_tag = (PATTERNS_FORMAT, "2.7.0 (another)", 1, 4) if spoil == "another interpreter" else tag()
    payload = marshal.dumps({"tag": file_tag, "saves": 1, "programs": [((pattern, flags), bogus, 1)]})
    if spoil == "unsigned":
        kept.write_bytes(payload)
    else:
        write_signed(kept, b"\x00garbage" if spoil == "not marshal" else payload)
    got = run(kept, env)
    assert got["out"] == run("-", env)["out"]
    assert got["new"] == len(PATTERNS)  # each made anew, the first one too
    again = read_signed(kept)
    assert again is not None and marshal.loads(again)["tag"] == tag()


def test_a_program_unused_for_many_saves_is_dropped(tmp_path: Path, env: dict[str, str]) -> None:
    """A pattern made from the data (or whose text follows a set's order) is not kept for ever."""
    kept = tmp_path / "programs"
    run(kept, env)
    payload = read_signed(kept)
    assert payload is not None
    data = marshal.loads(payload)
    stale, recent = data["programs"][0], data["programs"][1]
    saves = 100
    data["saves"] = saves
    data["programs"] = [(stale[0], stale[1], saves - KEPT_SAVES), (recent[0], recent[1], saves - 1)]
    write_signed(kept, marshal.dumps(data))
    got = run(kept, env)
    assert got["new"] == len(PATTERNS) - 2  # the two kept were used
    left = marshal.loads(read_signed(kept) or b"")
    assert left["saves"] == saves + 1 and len(left["programs"]) == len(PATTERNS)  # both used now

    old, new = "never compiled again", "not this time either"  # patterns of the data, say
    data["programs"] = [
        ((old, 0), (old, *stale[1][1:]), saves - KEPT_SAVES),
        ((new, 0), (new, *recent[1][1:]), saves - 1),
    ]
    write_signed(kept, marshal.dumps(data))
    run(kept, env)
    left = marshal.loads(read_signed(kept) or b"")
    names = {key[0] for key, _, _ in left["programs"]}
    assert new in names and old not in names


def test_a_program_kept_under_another_patterns_name_is_not_used(tmp_path: Path, env: dict[str, str]) -> None:
    """A valid program of another pattern (it would match other text) is made again, not run."""
    kept = tmp_path / "programs"
    run(kept, env)
    data = marshal.loads(read_signed(kept) or b"")
    (key0, args0, last0), (key1, args1, last1), *rest = data["programs"]
    data["programs"] = [(key0, args1, last0), (key1, args0, last1), *rest]  # two swapped
    write_signed(kept, marshal.dumps(data))
    got = run(kept, env)
    assert got["out"] == run("-", env)["out"]
    assert got["new"] == 2
