"""Templates compiled ahead (while ``check`` starts up) render exactly as templates compiled
while rendering; what the helper cannot compile is compiled, and reported, by rendering."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generator import cli
from generator.article import ahead as ahead_mod
from generator.article.ahead import CompileAhead, templated
from generator.article.functions import Library, Prices
from generator.article.render import Renderer, load_article
from generator.data.manifest import Manifest
from generator.data.table import ResultsTable
from generator.errors import TemplateError

from .conftest import PROJECT_ARTICLES, ROOT

CORPUS = ROOT / "tests" / "corpus" / "articles"


def renderer(table: ResultsTable, manifest: Manifest) -> Renderer:
    return Renderer(Library(table, manifest, Prices.load(ROOT / "data" / "prices.toml")))


def outcome(r: Renderer, path: Path) -> tuple[str, str, list[tuple[int, int, str]]]:
    """What rendering gives: the error, or the Markdown and every figure's position and text."""
    try:
        out = r.render(load_article(path))
    except TemplateError as exc:
        return exc.message, "", []
    return "", out.markdown, [(u.line, u.col, u.text) for u in out.uses]


def test_every_article_renders_the_same_from_code_compiled_ahead(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The corpus, the content, and constants jinja prints at compile time (escaped text, a
    bare number refused)."""
    (tmp_path / "constants.md").write_text(
        "---\ntitle: T\n---\nA {{ '*b*_c' }} {{ 'x' ~ '<y>' }}.\n", "utf-8"
    )
    (tmp_path / "number.md").write_text("---\ntitle: T\n---\n\nThe {{ 42 }}.\n", "utf-8")
    paths = sorted(CORPUS.glob("*/*.md")) + [ROOT / "content" / n for n in PROJECT_ARTICLES]
    paths += [tmp_path / "constants.md", tmp_path / "number.md"]
    monkeypatch.setattr(ahead_mod, "MAX_AHEAD", len(paths))
    compiled = CompileAhead(paths).collect(30)
    # all but the hand-written ones (nothing to compile) and the few with template syntax errors
    assert len(compiled) >= len([p for p in paths if templated(p)]) - 5
    assert not any(str(p) in compiled for p in paths if not templated(p))
    ahead, own = renderer(official, manifest), renderer(official, manifest)
    ahead.compiled = compiled
    for path in paths:
        assert outcome(ahead, path) == outcome(own, path), path


def test_code_compiled_from_another_text_is_not_used(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """An article edited after the helper compiled it renders its new text."""
    path = tmp_path / "note.md"
    path.write_text("---\ntitle: T\n---\nFirst {{ '%s' % 'text' }}.\n", "utf-8")
    compiled = CompileAhead([path]).collect(30)
    assert list(compiled) == [str(path)]
    path.write_text("---\ntitle: T\n---\nSecond {{ 'text' }}.\n", "utf-8")
    r = renderer(official, manifest)
    r.compiled = compiled
    assert r.render(load_article(path)).markdown.startswith("Second text.")


def test_what_the_helper_cannot_compile_is_reported_by_rendering(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    bad = tmp_path / "bad.md"
    bad.write_text("---\ntitle: T\n---\n\nText {{ per_gpu( }}.\n", "utf-8")
    missing = tmp_path / "missing.md"
    compiled = CompileAhead([bad, missing]).collect(30)
    assert compiled == {}
    r = renderer(official, manifest)
    r.compiled = compiled
    with pytest.raises(TemplateError) as exc:
        r.render(load_article(bad))
    assert exc.value.message == f"{bad}:5: unexpected '}}', expected ')'"


def test_a_helper_that_died_leaves_compiling_to_rendering(tmp_path: Path) -> None:
    path = tmp_path / "note.md"
    path.write_text("---\ntitle: T\n---\nText {{ 'x' }}.\n", "utf-8")
    helper = CompileAhead([path])
    helper.proc.kill()
    assert set(helper.collect(30)) <= {str(path)}  # what it sent before it died, if anything
    assert not helper.proc.is_alive()


def test_check_compiles_the_named_articles_ahead_unless_one_job_is_asked(
    tmp_path: Path, shared_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[CompileAhead] = []

    class Spy(CompileAhead):
        def __init__(self, paths: list[Path]) -> None:
            super().__init__(paths)
            self.names = [p.name for p in paths]
            made.append(self)

    monkeypatch.setattr(ahead_mod, "CompileAhead", Spy)  # check imports it when it runs
    monkeypatch.chdir(ROOT)
    note = tmp_path / "note.md"
    note.write_text('---\ntitle: "Note"\ndate: 2026-10-20\n---\n\nA short note on accelerators.\n', "utf-8")
    runner = CliRunner()
    for jobs in ("2", "1"):
        result = runner.invoke(
            cli.main, ["check", str(note), str(tmp_path), "--jobs", jobs, "--results", str(shared_dir)]
        )
        assert result.exit_code == 0, result.output
    assert [h.names for h in made] == [["note.md"]]  # the file named, not the folder; none with one job
    assert not made[0].proc.is_alive()
