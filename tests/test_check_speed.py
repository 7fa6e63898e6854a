"""A `check` of hand-written articles from the cached rows, without pandas (issue 36, speed): the
same findings as the full check, a cache never used for other results files nor trusted when
corrupt, and a process that imports neither pandas nor numpy."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.footnote import footnote_plugin

from generator.article.ahead import CompileAhead, templated
from generator.check.document import _markdown
from generator.data.manifest import Manifest
from generator.data.rowcache import cache_file, cached_rows, dumps
from generator.data.rowtable import FIELDS, RowTable
from generator.data.table import ResultsTable
from generator.project import Project
from generator.signing import read_signed, write_signed
from generator.site.build import run_checks
from generator.site.checking import check_files, publisher
from generator.site.pages import load_publication

from .conftest import CORPUS, ROOT, TINY_ROWS, official_project, tiny_row, write_results

HANDWRITTEN = sorted((CORPUS / "articles" / "handwritten").glob("*.md"))
RELEASE = CORPUS / "articles" / "handwritten" / "H1_nebius-press-release.md"


@pytest.fixture()
def user_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty user cache folder of this test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "gpu-insights"


def loader(folder: Path, manifest: Manifest, calls: list[int]) -> RowTable:
    calls.append(1)
    return RowTable.of(ResultsTable.from_dir(folder, manifest))


def test_hand_written_articles_get_the_findings_of_the_full_check_cold_and_from_the_cache(
    tmp_path: Path, shared_dir: Path, user_cache: Path
) -> None:
    project = official_project(tmp_path / "pub")
    for article in HANDWRITTEN:
        full = run_checks(project, [article], shared_dir)
        cold = check_files(project, [article], shared_dir)
        assert cold == full, article.name
        assert check_files(project, [article], shared_dir) == full, article.name
    assert any(full for full in (run_checks(project, [a], shared_dir) for a in HANDWRITTEN[:2]))
    assert len(list((user_cache / "rows").glob("rows-*.json"))) == 1


def test_a_folder_or_no_path_is_left_to_the_full_check_a_template_is_not(
    tmp_path: Path, shared_dir: Path, user_cache: Path
) -> None:
    project = official_project(tmp_path / "pub")
    article = project.content_dir / "mlperf-inference-v6.1-per-gpu.md"
    assert templated(article) and not templated(RELEASE)
    assert check_files(project, [RELEASE.parent], shared_dir) is None
    assert check_files(project, [RELEASE, RELEASE.parent], shared_dir) is None
    assert check_files(project, [], shared_dir) is None
    both = check_files(project, [RELEASE, article], shared_dir)
    assert both is not None and both == run_checks(project, [RELEASE, article], shared_dir)


def test_the_cache_is_read_back_only_for_its_own_unchanged_results_folder(
    tmp_path: Path, manifest: Manifest, user_cache: Path
) -> None:
    a = write_results(tmp_path / "a", TINY_ROWS)
    b = write_results(tmp_path / "b", [*TINY_ROWS[:-1], tiny_row("6.0-0001", "gpt-oss-120b", "Server", 1.0)])
    calls: list[int] = []
    first, hit = cached_rows(a, "digest-a", lambda: loader(a, manifest, calls))
    assert not hit and calls == [1]
    again, hit = cached_rows(a, "digest-a", lambda: loader(a, manifest, calls))
    assert hit and calls == [1]
    assert again.rows_at(range(len(again))) == first.rows_at(range(len(first)))
    # another folder, even one whose digest were the same: never these rows
    other, hit = cached_rows(b, "digest-a", lambda: loader(b, manifest, calls))
    assert not hit and calls == [1, 1]
    assert 1.0 in other.column("result") and 1.0 not in again.column("result")
    # the same folder with a file changed: a new digest, the rows loaded again
    _, hit = cached_rows(a, "digest-a2", lambda: loader(a, manifest, calls))
    assert not hit and calls == [1, 1, 1]


@pytest.mark.parametrize(
    "spoil",
    [
        lambda raw: raw[: len(raw) // 2],  # truncated: the signature no longer verifies
        lambda raw: b"not json at all",
        lambda raw: raw.replace(b'"nodes":[1,', b'"nodes":["1",'),  # a value of another type
        lambda raw: raw.replace(b'"round":["6.0",', b'"round":['),  # a column one row short
        lambda raw: raw.replace(b'"format":1', b'"format":2'),
    ],
)
def test_a_corrupt_cache_is_ignored_and_rebuilt_never_trusted(
    tmp_path: Path, manifest: Manifest, user_cache: Path, spoil: object
) -> None:
    folder = write_results(tmp_path / "results", TINY_ROWS)
    calls: list[int] = []
    cached_rows(folder, "d", lambda: loader(folder, manifest, calls))
    path = cache_file(folder)
    raw = read_signed(path)
    assert raw is not None and b'"nodes":[1,' in raw and b'"round":["6.0",' in raw
    spoiled = spoil(raw)  # type: ignore[operator]
    assert spoiled != raw
    write_signed(path, spoiled)  # signed with this user's key: only the checks inside can refuse it
    table, hit = cached_rows(folder, "d", lambda: loader(folder, manifest, calls))
    assert not hit and calls == [1, 1] and len(table) == len(TINY_ROWS)
    assert read_signed(path) == raw  # rewritten whole
    path.write_bytes(b"planted")  # unsigned
    assert cached_rows(folder, "d", lambda: loader(folder, manifest, calls))[1] is False


def test_a_table_with_a_value_of_another_type_is_never_kept(tmp_path: Path, manifest: Manifest) -> None:
    table = RowTable.of(ResultsTable.from_dir(write_results(tmp_path / "r", TINY_ROWS), manifest))
    assert dumps(table, tmp_path / "r", "d") is not None
    columns = {f: list(table.column(f)) for f in FIELDS}
    columns["nodes"][0] = None
    odd = RowTable.from_columns(columns, {})
    assert dumps(odd, tmp_path / "r", "d") is None


def test_the_rows_select_what_the_dataframe_selects_in_its_order(official: ResultsTable) -> None:
    rows = RowTable.of(official)
    df = official.df
    for rounds, benches in [
        ({"6.1"}, {"gpt-oss-120b"}),
        ({"6.0", "6.1"}, {"llama2-70b", "deepseek-r1"}),
        ({"9.9"}, {"x"}),
    ]:
        want = df[df["round"].isin(rounds) & df["benchmark"].isin(benches)].index.tolist()
        assert rows.positions(round=rounds, benchmark=benches) == want
    assert rows.values("submitter") == set(df["submitter"])
    assert rows.rounds == official.rounds
    some = rows.entry_positions()["6.1-0052"]
    assert rows.rows_at(some)[0] is official.rows_at(some)[0]  # the table's own row


def test_the_publisher_is_the_name_the_pages_print(tmp_path: Path) -> None:
    for text in ["site_name: Chip Notes\n", "site_name: 42\n", "site_name: '  '\n", "nav: [a]\n", ": bad: ["]:
        (tmp_path / "mkdocs.yml").write_text(text, "utf-8")
        assert publisher(Project(tmp_path)) == load_publication(tmp_path / "mkdocs.yml").name, text


def test_no_template_to_compile_ahead_starts_no_process(tmp_path: Path) -> None:
    ahead = CompileAhead([RELEASE])
    assert ahead.proc.pid is None
    assert ahead.collect(1.0) == {}


def test_a_check_of_a_hand_written_article_imports_neither_pandas_nor_numpy(
    tmp_path: Path, shared_dir: Path, user_cache: Path
) -> None:
    project = official_project(tmp_path / "pub")
    code = (
        "import sys; from generator.cli import main\n"
        "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
        "print(sorted(m for m in ('pandas', 'numpy', 'altair', 'mkdocs') if m in sys.modules), code)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # the user cache of this test
    cmd = [sys.executable, "-c", code, "check", str(RELEASE), "--results", str(shared_dir)]
    first = subprocess.run(cmd, cwd=project.root, env=env, capture_output=True, text=True)
    second = subprocess.run(cmd, cwd=project.root, env=env, capture_output=True, text=True)
    assert "'pandas'" in first.stdout.splitlines()[-1]  # the first: the rows loaded from the files
    assert second.stdout.splitlines()[-1] == "[] 1"  # then: from the cache
    assert first.stdout.splitlines()[:-1] == second.stdout.splitlines()[:-1]  # the same findings
    kept = read_signed(next((user_cache / "rows").glob("*.json")))
    assert kept is not None and json.loads(kept)["results"] == str(shared_dir.resolve())


def _structure(tokens: list[Token]) -> list[tuple[str, tuple[int, ...], str]]:
    """What the checker's parse reads of markdown-it's tokens: its blocks, tables, table rows
    and footnotes, with their lines (and the footnotes' labels)."""
    kinds = ("table_open", "tr_open", "paragraph_open", "heading_open", "footnote_open", "blockquote_open")
    kinds += ("bullet_list_open", "ordered_list_open", "list_item_open", "fence", "code_block")
    return [(t.type, tuple(t.map or ()), str(t.meta.get("label", ""))) for t in tokens if t.type in kinds]


_FULL = MarkdownIt("commonmark").enable("table").use(footnote_plugin)
_PIECES = ["|", "\\", "-", ":", " ", "a", "\n", "[^1]", "\n\n", "> ", "- ", "    ", "`", "1. ", "# "]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=60).map("".join))
def test_the_checkers_lean_table_rule_finds_the_tables_rows_and_notes_markdown_it_finds(text: str) -> None:
    """The checker's table rule makes no token per cell (a fifth of the parse of the reference
    article); the tables, their rows' lines and the footnotes kept are markdown-it's own."""
    text += "\n\n[^1]: a note\n"
    assert _structure(_markdown().parse(text)) == _structure(_FULL.parse(text))


def test_the_lean_table_rule_on_the_corpus_and_an_escaped_pipe() -> None:
    texts = [p.read_text("utf-8") for p in sorted(CORPUS.glob("*/*/*.md"))]
    texts.append("| a | b \\| c |\n|---|---|\n| 1 \\| 2 | 3 |\n| x [^1] | y\n\n[^1]: in a cell\n")
    for text in texts:
        assert _structure(_markdown().parse(text)) == _structure(_FULL.parse(text))
    assert ("footnote_open", (), "1") in _structure(_markdown().parse(texts[-1]))  # the note is kept
