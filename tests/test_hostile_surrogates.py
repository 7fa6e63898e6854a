"""A lone surrogate in front matter or a template is refused at the input (issue 34, item 17)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.article.pool import render_articles
from generator.article.render import load_article
from generator.data.manifest import Manifest
from generator.data.table import ResultsTable

from .test_safety_render import renderer

WHY = "which is not a character and no page can hold; write the character itself"


def render_error(tmp_path: Path, tiny: ResultsTable, manifest: Manifest, text: str) -> str:
    path = tmp_path / "a.md"
    path.write_text(text, encoding="utf-8")  # the escape is text: the file itself is valid UTF-8
    [out] = render_articles(renderer(tiny, manifest), [path], jobs=1)
    assert out.rendered is None
    return out.error.replace(str(path), "a.md")


@pytest.mark.parametrize(
    ("front", "line", "key", "code"),
    [
        ('title: "A \\ud800 title"\n', 2, "title", "D800"),
        ('description: "x"\nauthor: "B \\udfff"\n', 3, "author", "DFFF"),
        ('tags: ["ok", "\\ud83d"]\n', 2, "tags", "D83D"),
    ],
)
def test_front_matter_with_a_lone_surrogate_is_refused_with_its_line(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest, front: str, line: int, key: str, code: str
) -> None:
    text = f'---\n{front}date: 2026-10-05\nrounds: ["6.1"]\n---\n\nBody.\n'
    assert render_error(tmp_path, tiny, manifest, text) == (
        f"a.md:{line}: front matter {key}: a lone surrogate (U+{code}, from an escape such as "
        f'"\\u{code.lower()}"), {WHY}'
    )


@pytest.mark.parametrize(
    "body",
    [
        '{{ "\\ud800" }}',
        '{% set s = "a\\ud800b" %}{{ s }}',
        '{{ "x" ~ "\\ud800" }}',
        '{{ ["\\ud800"]|join }}',
    ],
)
def test_a_template_printing_a_lone_surrogate_is_refused_with_its_line(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest, body: str
) -> None:
    text = f'---\ntitle: "T"\ndate: 2026-10-05\nrounds: ["6.1"]\n---\n\nText.\n{body}\n'
    assert render_error(tmp_path, tiny, manifest, text) == (
        f'a.md:8: the template prints a lone surrogate (U+D800, from an escape such as "\\ud800" in a string), {WHY}'
    )


def test_a_paired_escape_is_a_character_and_prints(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    path = tmp_path / "a.md"
    path.write_text(
        '---\ntitle: "\\u00e9t\\u00e9"\ndate: 2026-10-05\nrounds: ["6.1"]\n---\n\n{{ "\\u00e9" }}\n', "utf-8"
    )
    out = renderer(tiny, manifest).render(load_article(path))
    assert out.markdown.startswith("é")
    assert out.article.title == "été"
