"""``check --fix``: the mechanical findings fixed, nothing else changed, nothing fixed twice.

Each fix on a tiny inline article (its text before and after, exactly), what needs judgement
left as it is, an article that does not render never touched, and the project's corpus fixed
as a whole: every mechanical finding gone, every other finding still there, and a second run
that changes nothing."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.article.footnotes import NOT_VERIFIED, TRADEMARK
from generator.article.functions import Library, Prices
from generator.article.render import Renderer
from generator.check import CheckConfig, Checker, Finding, check_rendered
from generator.check.fix import Edit, FileFix, Source, apply, fix_files, fix_paths
from generator.cli import main
from generator.data.manifest import Manifest
from generator.data.table import ResultsTable

from .conftest import ROOT, shared_results_dir

CORPUS = Path(__file__).resolve().parent / "corpus" / "articles"
CONFIG = CheckConfig.load(ROOT / "data" / "check.toml")
HEAD = "---\ntitle: t\ndate: 2026-10-05\n---\n"
CHECK = Callable[[list[Path]], list[Finding]]


@pytest.fixture(scope="module")
def check(official: ResultsTable, manifest: Manifest) -> CHECK:
    renderer = Renderer(Library(official, manifest, Prices.load(ROOT / "data" / "prices.toml")))
    checker = Checker(manifest, CONFIG, official)
    return lambda paths: check_rendered(renderer, checker, paths)[0]


def fixed(tmp_path: Path, text: str, check: CHECK) -> tuple[list[str], str, list[str]]:
    """The rules found in *text*, its text after --fix, and the rules found after."""
    path = tmp_path / "a.md"
    path.write_bytes(text.encode("utf-8"))
    before = [f.rule for f in check([path])]
    fix_paths([path], check, CONFIG, write_files=True)
    return before, path.read_bytes().decode("utf-8"), [f.rule for f in check([path])]


# ---------------------------------------------------------------------------- edits


def test_edits_are_made_from_the_end_backwards_in_the_files_own_line_breaks() -> None:
    f = Finding("a.md", 1, 1, "MLP012", "error", "m")
    source = Source(Path("a.md"), "ab\r\ncd\nef")
    edits = [
        (f, Edit.insert(1, 2, "X")),
        (f, Edit(2, 1, 2, 3, "ZZ")),
        (f, Edit.insert(3, 3, "!")),
        (f, Edit.insert(2, 1, "Y")),  # the same place as the replacement: before it
        (f, Edit.insert(2, 2, "never")),  # inside the replacement: left for the next run
        (f, Edit.insert(9, 1, "never")),  # no such line
    ]
    text, done = apply(source, edits)
    assert text == "aXb\r\nYZZ\nef!"
    assert len(done) == 4


def test_insertions_at_one_place_keep_the_order_of_their_findings() -> None:
    one, two = (Finding("a.md", 1, 1, r, "info", "m") for r in ("MLP034", "MLP035"))
    text, _ = apply(
        Source(Path("a.md"), "end\n"), [(one, Edit.insert(1, 4, "[1]")), (two, Edit.insert(1, 4, "[2]"))]
    )
    assert text == "end[1][2]\n"


# ---------------------------------------------------------------------------- each fix

LEGEND = "\n\n" + TRADEMARK
NOTE = (
    "[^1]: MLPerf® Inference v6.1 Closed Datacenter, gpt-oss-120b, Server scenario. Retrieved from "
    "https://github.com/mlcommons/inference_results_v6.1 on 2 October 2026, entry 6.1-0052. "
)
PER_GPU = (
    "HPE's eight-GPU XD690 delivered 14,211 tokens per second per GPU on gpt-oss-120b in the Server "
    "scenario of MLPerf® Inference v6.1 (Closed, Available), a per-GPU value we derived from the "
    "system result; derived metrics are not official MLPerf® metrics.[^1]\n\n"
)
CITED = 'Entry {{ entry("6.1-0052", "gpt-oss-120b", "Server") }} delivered {{ result("6.1-0052", "gpt-oss-120b", "Server") }} tokens/s on gpt-oss-120b Server.{{ cite() }}\n'
CLOSING = "## MLPerf® result footnotes and entry IDs\n\n{{ footnotes() }}"

CASES = {
    "sign in the text": (
        "MLPerf Inference v6.1 is out.\n",
        ["MLP012", "MLP028"],
        "MLPerf® Inference v6.1 is out." + LEGEND + "\n",
    ),
    "sign in the title": (
        '---\ntitle: "MLPerf Inference v6.1 notes"\ndate: 2026-10-05\n---\nNo results.\n',
        ["MLP012", "MLP028"],
        '---\ntitle: "MLPerf® Inference v6.1 notes"\ndate: 2026-10-05\n---\nNo results.' + LEGEND + "\n",
    ),
    "sign in the title, then in the heading that printed it": (
        '---\ntitle: "MLPerf Inference v6.1 notes"\ndate: 2026-10-05\n---\n# MLPerf Inference v6.1 notes\n'
        + LEGEND
        + "\n",
        ["MLP012"],
        '---\ntitle: "MLPerf® Inference v6.1 notes"\ndate: 2026-10-05\n---\n# MLPerf® Inference v6.1 notes\n'
        + LEGEND
        + "\n",
    ),
    "spelling, its sign kept": (
        HEAD + "The ML Perf Inference v6.1 round and the MLperf® Training v5.0 round.\n\n" + TRADEMARK + "\n",
        ["MLP013", "MLP013"],
        HEAD + "The MLPerf® Inference v6.1 round and the MLPerf® Training v5.0 round.\n\n" + TRADEMARK + "\n",
    ),
    "spelling over a line break, line breaks CRLF": (
        "The ML-\r\nPerf Inference v6.1 round.\r\n",
        ["MLP013", "MLP028"],
        "The MLPerf® Inference v6.1 round.\r\n\r\n" + TRADEMARK + "\r\n",
    ),
    "not-verified statement before the legend": (
        HEAD + PER_GPU + NOTE + TRADEMARK + "\n",
        ["MLP006"],
        HEAD + PER_GPU + NOTE + NOT_VERIFIED + " " + TRADEMARK + "\n",
    ),
    "footnotes and compliance at the end of a template": (
        HEAD + CITED + "\nThe end.\n",
        ["MLP034", "MLP035"],
        HEAD + CITED + "\nThe end.\n\n" + CLOSING + "\n\n{{ compliance() }}\n",
    ),
    "compliance after footnotes": (
        HEAD + CITED + "\n{{ footnotes() }}\n\nThe end.\n",
        ["MLP035"],
        HEAD + CITED + "\n{{ footnotes() }}\n\n{{ compliance() }}\n\nThe end.\n",
    ),
    "footnotes before compliance": (
        HEAD + CITED + "\n{{ compliance() }}\n",
        ["MLP034"],
        HEAD + CITED + "\n" + CLOSING + "\n\n{{ compliance() }}\n",
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_each_fix_removes_its_finding_and_changes_nothing_else(
    tmp_path: Path, check: CHECK, case: str
) -> None:
    text, rules, want = CASES[case]
    before, after, left = fixed(tmp_path, text, check)
    assert (before, after, left) == (rules, want, [])
    assert fixed(tmp_path, after, check) == ([], want, [])  # a fixed article stays as it is


JUDGEMENT = {
    "a possessive": (HEAD + "MLPerf's rules fix the model.\n\n" + TRADEMARK + "\n", ["MLP013"]),
    "a compound": (HEAD + "An MLperf-like harness.\n\n" + TRADEMARK + "\n", ["MLP013"]),
    "the mark as a noun": (HEAD + "The MLPerf results are out.\n\n" + TRADEMARK + "\n", ["MLP012"]),
    "capitals before capitals": (HEAD + "MLPERF INFERENCE V6.1 IS OUT.\n\n" + TRADEMARK + "\n", ["MLP013"]),
    "a placeholder prints the mark": (
        HEAD + "{{ 'MLPerf Inference' }} v6.1 is out.\n\n" + TRADEMARK + "\n",
        ["MLP012"],
    ),
    "the derived statement (words of the author)": (
        HEAD
        + PER_GPU.replace("; derived metrics are not official MLPerf® metrics", "")
        + NOTE
        + TRADEMARK
        + "\n",
        ["MLP006"],
    ),
}


@pytest.mark.parametrize("case", JUDGEMENT)
def test_what_needs_judgement_is_left_as_it_is(tmp_path: Path, check: CHECK, case: str) -> None:
    text, rules = JUDGEMENT[case]
    assert fixed(tmp_path, text, check) == (rules, text, rules)


@pytest.mark.parametrize(
    "text",
    [
        "---\ntitle: [unclosed\n---\nMLPerf Inference v6.1 is out.\n",  # front matter
        HEAD + "MLPerf Inference v6.1 is out {{ entry( }}.\n",  # template syntax
    ],
    ids=["front-matter", "template-syntax"],
)
def test_an_article_that_does_not_render_is_never_touched(tmp_path: Path, check: CHECK, text: str) -> None:
    path = tmp_path / "a.md"
    path.write_bytes(text.encode("utf-8"))
    fixes, left = fix_paths([path], check, CONFIG, write_files=True)
    assert [(fx.refused, fx.changed) for fx in fixes] == [
        ("not fixed: the article does not render (MLP000)", False)
    ]
    assert [f.rule for f in left] == ["MLP000"]
    assert path.read_bytes() == text.encode("utf-8")


def test_an_article_changed_while_checked_is_not_written(tmp_path: Path, check: CHECK) -> None:
    path = tmp_path / "a.md"
    path.write_text("MLPerf Inference v6.1 is out.\n", "utf-8")
    fixes = fix_files([path], check([path]), CONFIG)
    path.write_text("Rewritten meanwhile.\n", "utf-8")
    from generator.check.fix import write

    assert write(fixes) == []
    assert fixes[0].refused == "not fixed: the file changed while it was checked"
    assert path.read_text("utf-8") == "Rewritten meanwhile.\n"


# ---------------------------------------------------------------------------- the corpus

#: every finding of the corpus whose fix needs no judgement (its rule and line), and the one edit
#: that fixes it: at (line, column), the text that was there and the text there now
MECHANICAL = {
    "bad/MLP006_1_per-gpu-note-without-statements.md": ("MLP006", 14, (14, 203, "", NOT_VERIFIED + " ")),
    "bad/MLP006_5_per-gpu-table-no-not-verified.md": ("MLP006", 23, (23, 280, "", NOT_VERIFIED + " ")),
    "bad/MLP012_1_mark-without-sign-in-body.md": ("MLP012", 10, (10, 74, "", "®")),
    "bad/MLP012_2_mark-without-sign-in-title.md": ("MLP012", 2, (2, 15, "", "®")),
    "bad/MLP012_3_mark-without-sign-in-heading.md": ("MLP012", 10, (10, 10, "", "®")),
    "bad/MLP012_4_template-caption-without-sign.md": ("MLP012", 19, (19, 38, "", "®")),
    "bad/MLP013_3_hyphenated-mark.md": ("MLP013", 8, (8, 46, "ML-Perf", "MLPerf")),
    "bad/MLP013_6_ml-perf-inference-round.md": ("MLP013", 9, (9, 66, "ML-Perf", "MLPerf®")),
    "bad/MLP028_1_news-brief-no-legend.md": ("MLP028", 2, (12, 321, "", LEGEND)),
    "bad/MLP028_2_oped-no-legend.md": ("MLP028", 8, (10, 214, "", LEGEND)),
    "bad/MLP028_3_webinar-no-legend.md": ("MLP028", 2, (10, 163, "", LEGEND)),
}


def _edited(text: str, line: int, col: int, old: str, new: str) -> str:
    """*text* with *old*, found at (*line*, *col*), replaced by *new*."""
    at = sum(len(ln) + 1 for ln in text.split("\n")[: line - 1]) + col - 1
    assert text[at : at + len(old)] == old
    return text[:at] + new + text[at + len(old) :]


def _key(f: Finding, root: Path) -> tuple[str, int, int, str, str, str]:
    return (str(Path(f.path).relative_to(root)), f.line, f.col, f.rule, f.severity, f.message)


def test_fix_on_the_corpus_fixes_every_mechanical_finding_and_nothing_else(
    tmp_path: Path, check: CHECK
) -> None:
    root = tmp_path / "articles"
    shutil.copytree(CORPUS, root)
    paths = sorted(root.glob("*/*.md"))
    before = check(paths)
    fixes, left = fix_paths(paths, check, CONFIG, write_files=True)

    fixed_now = {
        str(fx.path.relative_to(root)): [(f.rule, f.line) for f in fx.fixed] for fx in fixes if fx.fixed
    }
    assert fixed_now == {name: [(rule, line)] for name, (rule, line, _) in MECHANICAL.items()}
    assert [(str(fx.path.relative_to(root)), fx.refused) for fx in fixes if fx.refused] == [
        ("bad/MLP000_1_scale-per-gpu-refused.md", "not fixed: the article does not render (MLP000)")
    ]
    # no other change: each fixed article differs by its one edit, every other one is as it was
    for p in paths:
        name = str(p.relative_to(root))
        was = (CORPUS / name).read_text("utf-8")
        assert p.read_text("utf-8") == (_edited(was, *MECHANICAL[name][2]) if name in MECHANICAL else was), (
            name
        )
    # the findings left are exactly the others, where they were
    gone = {(name, rule, line) for name, (rule, line, _) in MECHANICAL.items()}
    assert sorted(_key(f, root) for f in left) == sorted(
        _key(f, root) for f in before if (_key(f, root)[0], f.rule, f.line) not in gone
    )
    assert sorted(_key(f, root) for f in check(paths)) == sorted(_key(f, root) for f in left)
    # and fixing again changes nothing
    again, left_again = fix_paths(paths, check, CONFIG, write_files=True)
    assert [fx.path for fx in again if fx.changed or fx.fixed] == []
    assert sorted(_key(f, root) for f in left_again) == sorted(_key(f, root) for f in left)


# ---------------------------------------------------------------------------- the command


def test_check_fix_and_diff_commands(tmp_path: Path) -> None:
    arts = tmp_path / "articles"
    arts.mkdir()
    names = ["MLP012_3_mark-without-sign-in-heading.md", "MLP013_1_possessive-mark.md"]
    for n in names:
        shutil.copy(CORPUS / "bad" / n, arts / n)
    (arts / "broken.md").write_text(HEAD + "MLPerf Inference {{ entry( }}\n", "utf-8")
    results = ["--results", str(shared_results_dir())]
    heading = arts / names[0]
    res = CliRunner().invoke(main, ["check", str(heading), "--diff", *results])
    assert (res.exit_code, res.stdout, res.stderr) == (
        1,
        f"--- {heading}\n+++ {heading}\n@@ -7,7 +7,7 @@\n \n"
        " Cisco submitted three servers built on the NVIDIA RTX PRO 4500 Blackwell to the MLPerf® Inference "
        "v6.1 Closed Datacenter round, with four, five and eight GPUs.\n \n"
        "-## MLPerf Inference v6.1 Server results for the RTX PRO 4500\n"
        "+## MLPerf® Inference v6.1 Server results for the RTX PRO 4500\n \n"
        " On Llama 3.1 8B in the Server scenario, the four-GPU UCS X210 M8 node delivered 9,277.73 tokens per "
        "second, the five-GPU UCS C240 M8 11,426.1 and the eight-GPU UCS C845A M8 18,186.2, all three "
        "Available systems [1].\n \n",
        "would fix 1 finding(s) in 1 file(s)\n",
    )
    assert (CORPUS / "bad" / names[0]).read_bytes() == heading.read_bytes()  # --diff writes nothing

    res = CliRunner().invoke(main, ["check", str(arts), "--fix", *results])
    assert res.exit_code == 1
    assert res.stderr.splitlines() == [
        f"{arts}/broken.md: not fixed: the article does not render (MLP000)",
        "fixed 1 finding(s) in 1 file(s)",
        "2 error(s), 0 warning(s)",
    ]
    assert [ln.split(" error: ")[0] for ln in res.stdout.splitlines() if not ln.startswith(" ")] == [
        f"{arts}/{names[1]}:10:1 MLP013",
        f"{arts}/broken.md:5:1 MLP000",
    ]
    assert "## MLPerf® Inference v6.1 Server results" in heading.read_text("utf-8")
    res = CliRunner().invoke(main, ["check", str(arts), "--diff", *results])
    assert (res.exit_code, res.stdout) == (0, "")
    assert res.stderr.splitlines()[-1] == "would fix 0 finding(s) in 0 file(s)"


def test_a_file_fix_diff_marks_a_last_line_without_a_line_break() -> None:
    fx = FileFix(Path("a.md"), "one\ntwo", "one\ntwo®")
    assert (
        fx.diff()
        == "--- a/a.md\n+++ b/a.md\n@@ -1,2 +1,2 @@\n one\n-two\n\\ No newline at end of file\n+two®\n\\ No newline at end of file\n"
    )
