"""The reader's page of an article: Markdown footnotes with linked entries, tables, entry IDs."""

from __future__ import annotations

import html
import re
from pathlib import Path

from generator.article.footnotes import note_text, source_label
from generator.article.functions import Library, Prices
from generator.article.render import Rendered, Renderer, load_article
from generator.check import Finding
from generator.data.manifest import Manifest
from generator.data.table import ResultsTable
from generator.site.pages import page_makers
from generator.site.reader import (
    PLACE_MARKER,
    NoteContext,
    _cell,
    _wrap_ids,
    cited_entries,
    details_urls,
    drop_empty_headings,
    reader_markdown,
    reader_note,
)
from generator.site.review import one_folder_down, review_markers, review_page

from .conftest import ROOT, TINY_ROWS, tiny_row, write_results

GOLDEN = ROOT / "tests" / "golden" / "content" / "tiny.md"
DETAILS = "https://github.com/mlcommons/inference_results_v6.1/tree/main/closed/ExampleCorp/results/8xEXAMPLE"


def rendered(
    tmp_path: Path, manifest: Manifest, rows: list[dict[str, object]]
) -> tuple[Rendered, ResultsTable]:
    table = ResultsTable.from_dir(write_results(tmp_path / "results", rows), manifest)
    lib = Library(table, manifest, Prices.load(ROOT / "data" / "prices.toml"))
    return Renderer(lib).render(load_article(GOLDEN)), table


def with_details(rows: list[dict[str, object]], url: str) -> list[dict[str, object]]:
    return [{**r, "Details": url} for r in rows]


def test_markers_become_markdown_footnotes_with_linked_entries(tmp_path: Path, manifest: Manifest) -> None:
    r, table = rendered(tmp_path, manifest, with_details(TINY_ROWS, DETAILS))
    page = reader_markdown(r, NoteContext(manifest, {"gpt-oss-120b": "gpt-oss-120b"}, details_urls(table)))
    assert "#mlperf-fn-" not in page and "[^1]" in page and "[^2]" in page
    assert page.count(PLACE_MARKER) == 1
    note1 = html.unescape(
        next(ln for ln in page.splitlines() if ln.startswith("[^1]: "))
    )  # as the browser reads it
    # the round, division and suite with the benchmarks and scenarios cited; the rest (entries,
    # source, statements) out of the hover preview
    assert note1.startswith(
        '[^1]: MLPerf® Inference v6.1 Closed Datacenter: **gpt-oss-120b** (Server). <span class="gi-note-more">Entries '
    )
    assert (
        f'<a class="gi-entry" href="{DETAILS}" title="Official result 6.1-0001"><span class="gi-id">6.1-0001</span></a>'
        in note1
    )
    # the guideline statements stay: source and date, derived metrics, not verified, trademark
    assert "Retrieved from [" in note1 and "are derived metrics computed by GPU Insights" in note1
    assert "Result not verified by MLCommons Association." in note1
    assert note1.endswith("See www.mlcommons.org for more information.</span>")


def test_details_urls_that_are_not_http_are_not_links(tmp_path: Path, manifest: Manifest) -> None:
    rows = with_details(TINY_ROWS, "javascript:alert(1)")
    r, table = rendered(tmp_path, manifest, rows)
    assert details_urls(table) == {}
    page = reader_markdown(r, NoteContext(manifest, {}, details_urls(table)))
    assert "javascript:" not in page
    assert '<span class="gi-id">6.1-0001</span>' in page


def test_a_note_names_its_benchmarks_and_scenarios_and_each_entry_once(
    tmp_path: Path, manifest: Manifest
) -> None:
    rows = [*TINY_ROWS, tiny_row("6.1-0009", "llama2-70b-99.9", "Offline", 1000.0)]
    r, _ = rendered(tmp_path, manifest, rows)
    page = reader_markdown(r, NoteContext(manifest, {}, {}))
    note = next(ln for ln in page.splitlines() if ln.startswith("[^1]: "))
    assert note.startswith("[^1]: MLPerf® Inference v6.1 Closed Datacenter: **gpt-oss-120b** (Server).")
    assert (
        'Entries <span class="gi-id">6.1-0001</span>, <span class="gi-id">6.1-0002</span>, '
        '<span class="gi-id">6.1-0003</span>'
    ) in note
    assert note.count("6.1-0001") == 1


def test_table_cells_put_details_in_secondary_type() -> None:
    assert _cell(" 11,276 (8 GPUs, 6.1-0021)<br>median 11,254 of 2 ") == (
        ' 11,276<span class="gi-sub">8 GPUs · 6.1-0021</span><span class="gi-sub">median 11,254 of 2</span> '
    )
    assert _cell(" — ") == " — "


def test_entry_ids_never_break_but_code_tags_and_links_are_left_alone() -> None:
    assert _wrap_ids("entry 6.1-0021, `6.1-0022`, [x](https://e.org/6.1-0023)") == (
        'entry <span class="gi-id">6.1-0021</span>, `6.1-0022`, [x](https://e.org/6.1-0023)'
    )
    assert (
        _wrap_ids("[see 6.1-0026](https://e.org/x)")
        == '[see <span class="gi-id">6.1-0026</span>](https://e.org/x)'
    )
    assert _wrap_ids('<img alt="6.1-0024">') == '<img alt="6.1-0024">'
    assert _wrap_ids('!!! note "Entry 6.1-0025 is inferred"') == '!!! note "Entry 6.1-0025 is inferred"'


def test_entry_ids_in_prose_and_tables_link_to_their_official_result() -> None:
    details = {("6.1", "6.1-0021"): DETAILS, ("6.0", "6.0-0002"): DETAILS + "/v60"}
    assert html.unescape(
        _wrap_ids("| B200 | 7,500 (8 GPUs, 6.1-0021) | entry 6.0-0002 and 6.1-0099 |", details)
    ) == (
        f'| B200 | 7,500 (8 GPUs, <a class="gi-entry" href="{DETAILS}" title="Official result 6.1-0021">'
        '<span class="gi-id">6.1-0021</span></a>) | entry '
        f'<a class="gi-entry" href="{DETAILS}/v60" title="Official result 6.0-0002">'
        '<span class="gi-id">6.0-0002</span></a> and <span class="gi-id">6.1-0099</span> |'
    )
    # never a link inside a link: in link text and inside an HTML link an ID is only kept whole
    assert _wrap_ids('[6.1-0021](https://e.org) and <a href="#x">6.1-0021</a>', details) == (
        '[<span class="gi-id">6.1-0021</span>](https://e.org) and <a href="#x"><span class="gi-id">6.1-0021</span></a>'
    )


def test_the_markers_of_one_citation_are_separated(tmp_path: Path, manifest: Manifest) -> None:
    r, table = rendered(tmp_path, manifest, with_details(TINY_ROWS, DETAILS))
    assert "above its own v6.0 result.[^\\[1\\]](#mlperf-fn-1)[\\[2\\]](#mlperf-fn-2)" in r.markdown
    page = html.unescape(reader_markdown(r, NoteContext(manifest, {}, details_urls(table))))
    assert 'above its own v6.0 result.[^1]<sup class="gi-fn-sep">,</sup>[^2]\n' in page
    assert "*Table 1: best Available rows.*[^1]\n" in page
    # the entry the prose names links to its official result
    assert (
        f'(entry\n<a class="gi-entry" href="{DETAILS}" title="Official result 6.1-0001"><span class="gi-id">6.1-0001</span></a>)'
        in page
    )


def test_the_notes_name_the_publication(tmp_path: Path, manifest: Manifest) -> None:
    r, _ = rendered(tmp_path, manifest, TINY_ROWS)
    page = reader_markdown(r, NoteContext(manifest, {}, {}, "My GPU publication"))
    note1 = next(ln for ln in page.splitlines() if ln.startswith("[^1]: "))
    assert (
        "Per-GPU values, medians, and percentage changes are derived metrics computed by My GPU publication and"
        in note1
    )
    assert "GPU Insights" not in page


def test_review_markers_are_superscript_links_not_literal_brackets(
    tmp_path: Path, manifest: Manifest
) -> None:
    assert review_markers("result.[^\\[1\\]](#mlperf-fn-1)[\\[3\\]](#mlperf-fn-3) Next") == (
        'result.<sup class="gi-fn"><a href="#mlperf-fn-1" title="Note 1">1</a>,'
        '<a href="#mlperf-fn-3" title="Note 3">3</a></sup> Next'
    )
    r, _ = rendered(tmp_path, manifest, TINY_ROWS)
    page = review_page(r, [])
    assert "[^\\[" not in page and "(#mlperf-fn-" not in page
    assert (
        'above its own v6.0 result.<sup class="gi-fn"><a href="#mlperf-fn-1" title="Note 1">1</a>,'
        '<a href="#mlperf-fn-2" title="Note 2">2</a></sup>'
    ) in page


def test_review_pages_keep_the_articles_links_and_charts_working_one_folder_down() -> None:
    text = '[v6.1](rounds/v6.1.md), [x](https://e.org/a.md), [n](#fn), [up](../a.md) <img src="charts/a.svg">'
    assert one_folder_down(text) == (
        '[v6.1](../rounds/v6.1.md), [x](https://e.org/a.md), [n](#fn), [up](../a.md) <img src="../charts/a.svg">'
    )


def test_empty_headings_are_dropped() -> None:
    lines = ["# T", "", "text", "", "## FAQ", "", "## Sources", "", "- a", "", "## End", ""]
    assert drop_empty_headings(lines) == ["# T", "", "text", "", "", "## Sources", "", "- a", "", ""]


def test_review_page_highlights_every_figure_with_its_formula(tmp_path: Path, manifest: Manifest) -> None:
    r, _ = rendered(tmp_path, manifest, TINY_ROWS)
    page = review_page(r, [])
    assert "&#40;v6.1/summary_results.json index 0&#41;" in page  # text Markdown cannot read as a link
    page = html.unescape(page)
    in_text = {u.offset for u in r.uses if not u.table and u.offset >= 0}
    assert page.count('<mark class="gi-fig"') >= len(in_text)
    assert (
        '<mark class="gi-fig" title="template line 11 · 80000 / 8 accelerators (6.1-0001 gpt-oss-120b Server) '
        '· 6.1-0001 gpt-oss-120b Server (v6.1/summary_results.json index 0)">10,000</mark>'
    ) in page
    assert page.startswith("# Review: Tiny golden article\n")


def test_review_page_shows_each_finding_after_its_paragraph(tmp_path: Path, manifest: Manifest) -> None:
    r, _ = rendered(tmp_path, manifest, TINY_ROWS)
    finding = Finding(str(GOLDEN), 11, 5, "MLP019", "warning", "a number typed by hand", "use a placeholder")
    page = review_page(r, [finding])
    box = '!!! warning "MLP019 warning, template line 11:5"\n    a number typed by hand *use a placeholder*'
    assert page.count(box) == 1
    before, after = page.split(box)
    assert "above its own v6.0 result." in before.split("\n\n")[-2]  # the paragraph of line 11
    assert after.lstrip("\n").startswith("*Table 1: best Available rows.*")


def test_reader_provenance_has_no_template_lines(tmp_path: Path, manifest: Manifest) -> None:
    r, _ = rendered(tmp_path, manifest, TINY_ROWS)
    page = reader_markdown(r, NoteContext(manifest, {}, {}))
    assert "| Line | Figure |" in r.markdown
    assert "| Figure | Formula | Entries |" in page and "| Line |" not in page


def _plain(markdown: str) -> str:
    text = re.sub(r"<[^>]+>", "", markdown)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return text.replace("**", "").replace("\\_", "_")


def test_reader_notes_keep_every_statement_of_the_generated_notes(tmp_path: Path, manifest: Manifest) -> None:
    """The reader's notes are made again from the groups: nothing the generated notes state may be lost."""
    r, table = rendered(tmp_path, manifest, TINY_ROWS)
    display = {b: manifest.rules.display_name(b) for g in r.groups.values() for b in g.benchmarks}
    ctx = NoteContext(manifest, display, details_urls(table))
    for key, g in r.groups.items():
        generated = note_text(g, manifest, display, ctx.publisher)
        reader = _plain(reader_note(g, cited_entries(r).get(key, {}), ctx))
        head, statements = re.split(r"; entr(?:y|ies) ", generated, maxsplit=1)  # round, source; then IDs
        for rid in g.entries:
            assert rid in reader
        sentences = re.split(r"(?<=\.) (?=[A-Z])", statements)[1:]  # after the list of IDs
        assert sentences
        for sentence in sentences:
            assert sentence in reader, sentence
        assert head.split(";")[0] in reader  # "MLPerf® Inference v6.1 Closed Datacenter"


def test_each_review_page_shows_its_own_article_s_findings_in_order(
    tmp_path: Path, manifest: Manifest
) -> None:
    r, table = rendered(tmp_path, manifest, TINY_ROWS)
    other = tmp_path / "other.md"
    other.write_text(GOLDEN.read_text("utf-8"), "utf-8")
    r2 = Renderer(Library(table, manifest, Prices.load(ROOT / "data" / "prices.toml"))).render(
        load_article(other)
    )

    def finding(path: Path, line: int, message: str) -> Finding:
        return Finding(str(path), line, 1, "MLP019", "warning", message, "use a placeholder")

    findings = [finding(other, 11, "b first"), finding(GOLDEN, 11, "a only"), finding(other, 13, "b second")]
    pages = dict(page_makers([r, r2], table, manifest, False, findings))
    mine, theirs = pages["review/tiny.md"](), pages["review/other.md"]()
    assert "a only" in mine and "b first" not in mine and "b second" not in mine
    assert "a only" not in theirs and theirs.index("b first") < theirs.index("b second")


def test_an_official_url_with_a_space_is_percent_encoded_and_linked(
    tmp_path: Path, manifest: Manifest
) -> None:
    """Entry 6.1-0108's Details URL names the folder ``closed/Naeem Khoshnevis``: it got no link."""
    url = "https://github.com/mlcommons/inference_results_v6.1/tree/main/closed/Naeem Khoshnevis/results/H200"
    r, table = rendered(tmp_path, manifest, with_details(TINY_ROWS, url))
    encoded = url.replace(" ", "%20")
    assert details_urls(table)[("6.1", "6.1-0001")] == encoded
    page = reader_markdown(r, NoteContext(manifest, {}, details_urls(table)))
    assert f'<a class="gi-entry" href="{encoded}" title="Official result 6.1-0001">' in page
    quoted = with_details(TINY_ROWS, 'https://example.org/a"b c')
    assert (
        details_urls(rendered(tmp_path, manifest, quoted)[1])[("6.1", "6.1-0001")]
        == "https://example.org/a%22b%20c"
    )


def test_notes_name_the_results_file_the_build_loaded(manifest: Manifest) -> None:
    """v6.1's label named summary.xlsx when the build had read summary_results.json."""
    v61 = manifest.rounds["6.1"]
    assert v61.source_label == "official results repository, summary.xlsx"
    assert source_label(v61, "summary_results.json") == "official results repository, summary_results.json"
    assert source_label(v61, "summary.xlsx") == "official results repository, summary.xlsx"
    assert source_label(v61) == "official results repository, summary.xlsx"
