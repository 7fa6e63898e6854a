"""Rendering a careless or hostile template: bounded, tracked, escaped, never a traceback."""

from __future__ import annotations

import multiprocessing as mp
import os
import time
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest

from generator.article.functions import Library, Prices
from generator.article.pool import _Queue, render_articles
from generator.article.render import Limits, Rendered, Renderer, load_article
from generator.data.manifest import Manifest
from generator.data.table import ResultsTable
from generator.errors import TemplateError

from .conftest import ROOT, tiny_row, write_results

HEAD = '---\ntitle: "T"\ndate: 2026-10-05\nrounds: ["6.1"]\n---\n'


def renderer(table: ResultsTable, manifest: Manifest, **limits: float) -> Renderer:
    lib = Library(table, manifest, Prices.load(ROOT / "data" / "prices.toml"))
    return Renderer(lib, limits=Limits(**limits))  # type: ignore[arg-type]


def render_error(tmp_path: Path, table: ResultsTable, manifest: Manifest, body: str, **limits: float) -> str:
    path = tmp_path / "a.md"
    path.write_text(HEAD + body, encoding="utf-8")
    [out] = render_articles(renderer(table, manifest, **limits), [path], jobs=1)
    assert out.rendered is None, out.rendered.markdown if out.rendered else ""
    return out.error.replace(str(path), "a.md")


def render_ok(tmp_path: Path, table: ResultsTable, manifest: Manifest, body: str) -> str:
    path = tmp_path / "a.md"
    path.write_text(HEAD + body, encoding="utf-8")
    return renderer(table, manifest).render(load_article(path)).markdown


# ---------------------------------------------------------------- no untracked numbers
TEXT_REFUSED = (
    "into text, which no footnote would cite; print the figure itself ({{ x }}), "
    'or x.fmt(style="Words") for a capitalised number word'
)


@pytest.mark.parametrize(
    ("expr", "message"),
    [
        (
            '{{ per_gpu("6.1-0001", "gpt-oss-120b", "Server").value }}',
            "figure 10,000: .value gives a raw value that no footnote would cite; print the figure "
            "itself ({{ x }}), x.fmt(digits=..., scale=...), x.total or x.per_gpu",
        ),
        (
            '{{ per_gpu("6.1-0001", "gpt-oss-120b", "Server").row.result }}',
            "figure 10,000: .row gives a raw value that no footnote would cite; print the figure "
            "itself ({{ x }}), x.fmt(digits=..., scale=...), x.total or x.per_gpu",
        ),
        (
            "{{ 3 * 4 }}",
            "prints the bare number 12, which no footnote would cite; numbers come from figures "
            "(result, per_gpu, best, ...) or constant(value, why)",
        ),
        (
            '{{ per_gpu("6.1-0001", "gpt-oss-120b", "Server")|float }}',
            "prints the bare number 10000.0, which no footnote would cite; numbers come from figures "
            "(result, per_gpu, best, ...) or constant(value, why)",
        ),
        ("{{ [1, 2] }}", "prints a list, not a figure or text; print its figures one by one"),
        *[
            (expr.replace("X", 'per_gpu("6.1-0001", "gpt-oss-120b", "Server")'), f"{how} {TEXT_REFUSED}")
            for expr, how in [
                ("{{ X|string }}", "the filter |string turns figure 10,000"),
                ("{{ X|pprint }}", "the filter |pprint turns figure 10,000"),
                ("{{ X|capitalize }}", "the filter |capitalize turns figure 10,000"),
                ('{{ [X, X]|join(", ") }}', "the filter |join turns figure 10,000"),
                ('{{ X ~ "" }}', "joining with ~ turns figure 10,000"),
                ('{{ (X|float) ~ "" }}', "joining with ~ turns the bare number 10000.0"),
                ('{{ "%s" % X }}', "the % operator turns figure 10,000"),
                ('{{ "{}".format(X) }}', "str.format() turns figure 10,000"),
                ('{{ "{a}".format_map({"a": X}) }}', "str.format_map() turns figure 10,000"),
            ]
        ],
    ],
)
def test_no_untracked_numbers_a_template_prints_data_only_as_cited_figures(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest, expr: str, message: str
) -> None:
    assert render_error(tmp_path, tiny, manifest, f"\nValue: {expr}\n") == f"a.md:7: {message}"


def test_no_untracked_numbers_text_filters_on_text_and_tracked_words_still_work(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    body = (
        '\n{% set x = per_gpu("6.1-0001", "gpt-oss-120b", "Server") %}'
        '{{ x.system|upper }} {{ "a" ~ x.submitter }} {{ count("gpt-oss-120b", "Server", round="6.1").fmt(style="Words") }}'
        " {{ ([x, x]|first) }}\n"
    )
    out = render_ok(tmp_path, tiny, manifest, body)
    assert out.startswith("EXAMPLE 8X aExampleCorp Four 10,000\n"), out


# ---------------------------------------------------------------- bounded rendering


def test_bounded_rendering_an_endless_loop_stops_at_the_time_limit(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    body = "\n{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}\n"
    t0 = time.monotonic()
    err = render_error(tmp_path, tiny, manifest, body, seconds=1.0)
    assert time.monotonic() - t0 < 8
    assert err == "a.md:7: the article took longer than the limit of 1 s to render"


def test_bounded_rendering_huge_output_stops_at_the_size_limit(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    body = '\n{% for i in range(100000) %}{{ "xxxxxxxxxx" }}\n{% endfor %}\n'
    err = render_error(tmp_path, tiny, manifest, body, output_bytes=100_000)
    assert err == (
        "a.md:7: the article's output exceeds the limit of 100,000 characters (a loop printing too much?)"
    )


@pytest.mark.parametrize(
    ("expr", "message"),
    [
        ("{{ 9 ** 999999999 }}", "9 ** 999999999 is too large to compute in a template"),
        ("{{ 2.0 ** 10000 }}", "2.0 ** 10000 is too large to compute in a template"),
        ("{{ 'x' * 10**10 }}", "repeating a str 10,000,000,000 times exceeds 1,000,000 items"),
        (
            "{{ range(10**9)|list }}",
            "OverflowError: Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000).",
        ),
        ("{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}", "recursion too deep (a macro calling itself?)"),
        ("{{ x.y }}", "'x' is undefined"),
        ("{{ nope() }}", "'nope' is undefined"),
    ],
)
def test_bounded_rendering_blow_ups_and_mistakes_are_errors_with_their_line(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest, expr: str, message: str
) -> None:
    assert render_error(tmp_path, tiny, manifest, f"\n{expr}\n") == f"a.md:7: {message}"


def test_bounded_rendering_a_memory_hog_fails_alone_and_the_other_articles_render(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    good = tmp_path / "good.md"
    good.write_text(HEAD + '\n{{ per_gpu("6.1-0001", "gpt-oss-120b", "Server") }}\n')
    hog = tmp_path / "hog.md"
    hog.write_text(HEAD + "\n{% set s = 'x'|center(400000000) %}{% set t = [s, s ~ s, s ~ s ~ s] %}\n")
    outs = render_articles(renderer(tiny, manifest, memory_bytes=300e6), [hog, good], jobs=2)
    assert [o.path.name for o in outs] == ["hog.md", "good.md"]
    assert outs[0].error == f"{hog}: the article ran out of memory" or outs[0].error.startswith(f"{hog}:7: ")
    assert outs[1].rendered is not None and "10,000" in outs[1].rendered.markdown


def test_bounded_rendering_format_tricks_are_errors_not_tracebacks(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    err = render_error(tmp_path, tiny, manifest, "\n{{ '{0.__class__}'.format_map({}) }}\n")
    assert err.startswith("a.md:7: IndexError: ")


def test_bounded_rendering_billion_laughs_front_matter_is_refused(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    lol = "\n".join(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 10))
    path = tmp_path / "lol.md"
    path.write_text(f'---\ntitle: x\nl0: &l0 ["lol"]\n{lol}\n---\nBody\n', encoding="utf-8")
    with pytest.raises(TemplateError) as err:
        load_article(path)
    assert err.value.message == (
        f"{path}:6: front matter uses more than 20 YAML aliases (refused: expansion is bounded)"
    )


@pytest.mark.parametrize(
    ("front", "message"),
    [
        (
            "rounds: 6.1",
            'rounds: write round versions as quoted text, rounds: ["6.1"] (YAML reads a bare 6.10 as the number 6.1)',
        ),
        ('rounds: ["7.0; rm -rf"]', "rounds: '7.0; rm -rf' is not a round version like 6.1"),
        ("date: someday", "date: 'someday' is not a date (write 2026-10-05 or October 5, 2026)"),
        ("title: [1, 2]", "title: expected text, got list"),
        ("sample: maybe", "sample: expected true or false"),
    ],
)
def test_front_matter_mistakes_are_errors_with_the_key_line(tmp_path: Path, front: str, message: str) -> None:
    path = tmp_path / "a.md"
    path.write_text(f'---\ntitle: "T"\n{front}\n---\nBody\n', encoding="utf-8")
    with pytest.raises(TemplateError) as err:
        load_article(path)
    assert err.value.message == f"{path}:3: {message}"


@pytest.mark.parametrize(
    ("value", "date"),
    [
        ("2026-09-25T08:00:00Z", "2026-09-25"),
        ('"October 5, 2026"', "2026-10-05"),
        ("2026-10-05", "2026-10-05"),
    ],
)
def test_front_matter_dates_may_be_dates_datetimes_or_written(tmp_path: Path, value: str, date: str) -> None:
    path = tmp_path / "a.md"
    path.write_text(f"---\ntitle: T\ndate: {value}\n---\nBody\n", encoding="utf-8")
    assert load_article(path).meta["date"].isoformat() == date


def test_control_characters_in_an_article_are_an_error_with_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text("---\ntitle: T\n---\nText \x00CITE0\x00 here\n", encoding="utf-8")
    with pytest.raises(TemplateError) as err:
        load_article(path)
    assert err.value.message == f"{path}:4:6: control character U+0000 in the article"


# ---------------------------------------------------------------- escaping by construction

HOSTILE = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "[x](javascript:alert(1))",
    "a | b | c",
    "{: onclick=alert(1) }",
    "`code` *em* _u_ \\ end",
]


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def elements(html: str) -> _Elements:
    p = _Elements()
    p.feed(html)
    return p


@pytest.mark.parametrize("text", HOSTILE)
def test_escape_by_construction_data_text_prints_as_text(
    tmp_path: Path, manifest: Manifest, text: str
) -> None:
    rows = [
        tiny_row("6.1-0001", "gpt-oss-120b", "Server", 80000.0, System=text, Submitter=text, Software=text)
    ]
    table = ResultsTable.from_dir(write_results(tmp_path / "r", rows), manifest)
    x = 'per_gpu("6.1-0001", "gpt-oss-120b", "Server")'
    body = (
        f"\nSystem {{{{ {x}.system }}}}, by {{{{ {x}.submitter }}}} on "
        f'{{{{ software("6.1-0001", "gpt-oss-120b", "Server") }}}}.\n\n'
        f"| System | Value |\n|---|--:|\n| {{{{ {x}.system }}}} | {{{{ {x} }}}} |\n\n"
        f'<span title="{{{{ {x}.system }}}}">x</span>\n'
    )
    md_text = render_ok(tmp_path, table, manifest, body)
    html = markdown.markdown(
        md_text.split("\n## MLPerf")[0], extensions=["tables", "attr_list", "md_in_html"]
    )
    found = elements(html)
    tags = [tag for tag, _ in found.elements]
    assert tags == ["p", "table", "thead", "tr", "th", "th", "tbody", "tr", "td", "td", "p", "span"], html
    attrs = {(tag, a) for tag, at in found.elements for a in at}
    assert attrs <= {("th", "style"), ("td", "style"), ("span", "title")}, html
    visible = "".join(found.text)
    # the system twice (prose, table cell), the software, the submitter (underscores print as spaces)
    assert visible.count(text) == (3 if "_" in text else 4), visible
    assert text.replace("_", " ") in visible


def test_the_build_s_own_work_runs_once_while_a_worker_renders(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    """``meanwhile`` (the build loads MkDocs there) overlaps the rendering, and runs once even
    when there is nothing to render."""
    path = tmp_path / "a.md"
    path.write_text(HEAD + '\n{{ per_gpu("6.1-0001", "gpt-oss-120b", "Server") }}\n', encoding="utf-8")
    before = len(mp.active_children())
    workers: list[int] = []

    def meanwhile() -> None:
        workers.append(len(mp.active_children()) - before)

    # the build's: with an *after* hook (one article without one renders in this process)
    [out] = render_articles(
        renderer(tiny, manifest), [path], jobs=1, meanwhile=meanwhile, after=lambda r: None
    )
    assert out.rendered is not None and workers == [1]
    assert render_articles(renderer(tiny, manifest), [], meanwhile=meanwhile) == []
    assert workers == [1, 0]


def test_a_worker_takes_the_next_article_of_its_own_group_else_a_group_nobody_renders() -> None:
    q = _Queue([0, 1, 2, 3, 4], ["a", "b", "a", "b", "c"])
    assert q.take(None, set()) == (0, "a")
    assert q.take(None, {"a"}) == (1, "b")  # a second worker starts another group
    assert q.take("a", {"b"}) == (2, "a")
    assert q.take("a", {"b"}) == (4, "c")  # its group is done: one nobody renders
    assert q.take("c", set()) == (3, "b")
    assert not q
    plain = _Queue([2, 5], None)  # no groups: in order
    assert [plain.take("x", set())[0], plain.take(None, set())[0]] == [2, 5]


def test_grouped_articles_still_come_back_in_their_order(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    paths = []
    for i in range(6):
        p = tmp_path / f"a{i}.md"
        p.write_text(HEAD + f"\nArticle {i}: {{{{ per_gpu('6.1-0001', 'gpt-oss-120b', 'Server') }}}}\n")
        paths.append(p)
    outs = render_articles(renderer(tiny, manifest), paths, jobs=2, groups=["x", "y"] * 3)
    assert [o.path for o in outs] == paths
    assert [
        f"Article {i}: 10,000" in (o.rendered.markdown if o.rendered else "") for i, o in enumerate(outs)
    ] == [True] * 6


@pytest.mark.parametrize(
    ("title", "message"),
    [
        ("[" * 3000 + "]" * 3000, "invalid front matter: lists or mappings nested too deeply"),
        (
            "1" * 5000,
            "invalid front matter: Exceeds the limit (4300 digits) for integer string conversion: "
            "value has 5000 digits",
        ),
    ],
)
def test_bounded_rendering_front_matter_too_deep_or_too_long_a_number_is_an_error(
    tmp_path: Path, title: str, message: str
) -> None:
    path = tmp_path / "a.md"
    path.write_text(f"---\ntitle: {title}\n---\nBody\n", encoding="utf-8")
    with pytest.raises(TemplateError) as err:
        load_article(path)
    assert err.value.message == f"{path}:1: {message}"


def test_a_worker_keeps_to_its_own_group_while_another_is_free() -> None:
    q = _Queue([0, 1, 2, 3], ["a", "b", "a", "b"])
    assert q.take("b", set()) == (1, "b")  # not 0: its own group first
    assert q.take("b", set()) == (3, "b")
    with pytest.raises(ValueError, match="^1 groups for 2 articles$"):
        render_articles(None, [Path("a.md"), Path("b.md")], groups=["x"])  # type: ignore[arg-type]


def test_each_worker_renders_a_group_through_and_one_worker_renders_in_order(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    """A worker leaves a group only when it has no article left, so in what each worker
    renders a group is one run (whatever the timing: an idle worker may join another's)."""
    done = tmp_path / "done.txt"

    def record(r: Rendered) -> None:  # runs in the worker, in the order it renders
        with done.open("a") as f:
            f.write(f"{os.getpid()} {r.article.path.name}\n")

    paths = []
    for i in range(12):
        p = tmp_path / f"a{i:02d}.md"
        p.write_text(HEAD + f"\nArticle {i}\n")
        paths.append(p)
    group = {p.name: "xyz"[i % 3] for i, p in enumerate(paths)}
    for jobs in (2, 1):
        done.write_text("")
        outs = render_articles(
            renderer(tiny, manifest), paths, jobs=jobs, groups=list(group.values()), after=record
        )
        assert [o.path for o in outs] == paths
        by_worker: dict[str, list[str]] = {}
        for line in done.read_text().splitlines():
            pid, name = line.split()
            by_worker.setdefault(pid, []).append(name)
        if jobs == 1:
            assert list(by_worker.values()) == [[p.name for p in paths]]
            continue
        for names in by_worker.values():
            runs = [g for k, g in enumerate(group[n] for n in names) if k == 0 or group[names[k - 1]] != g]
            assert len(runs) == len(set(runs)), names


def test_the_build_s_own_work_in_steps_runs_whole_while_workers_get_their_next_articles(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    """A ``meanwhile`` that returns an iterator (the build compiles the theme a template at a
    time) runs a step while no worker waits for an article: a worker done with its article gets
    the next one before the steps are over, and every step runs, those left after the last
    article included."""
    paths = []
    for i in range(3):
        paths.append(tmp_path / f"a{i}.md")
        paths[-1].write_text(HEAD + '\n{{ per_gpu("6.1-0001", "gpt-oss-120b", "Server") }}\n', "utf-8")
    events: list[str] = []

    def meanwhile() -> Iterator[None]:
        for _ in range(8):
            events.append("step")
            time.sleep(0.05)
            yield

    outs = render_articles(
        renderer(tiny, manifest), paths, jobs=1, meanwhile=meanwhile, on_done=lambda o: events.append("done")
    )
    assert [o.rendered is not None for o in outs] == [True, True, True]
    assert events.count("step") == 8 and events.count("done") == 3
    last_step = len(events) - 1 - events[::-1].index("step")
    assert events.index("done") < last_step, events


def test_a_worker_renders_its_next_article_while_this_process_is_busy(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    """While many articles are left, a worker holds the next one (``pool.DEPTH``): it does not
    wait for this process (loading MkDocs meanwhile) to give it one."""
    paths = []
    for i in range(4):
        paths.append(tmp_path / f"a{i}.md")
        paths[-1].write_text(HEAD + f"\nArticle {i}\n", "utf-8")
    rendered_at = tmp_path / "at.txt"

    def record(r: Rendered) -> None:  # in the worker, as each article is done
        with rendered_at.open("a") as f:
            f.write(f"{time.monotonic()}\n")

    busy_until: list[float] = []

    def meanwhile() -> None:
        time.sleep(1.0)
        busy_until.append(time.monotonic())

    outs = render_articles(renderer(tiny, manifest), paths, jobs=1, after=record, meanwhile=meanwhile)
    assert [o.rendered is not None for o in outs] == [True] * 4
    times = [float(t) for t in rendered_at.read_text().split()]
    assert sum(t < busy_until[0] for t in times) == 2


def test_the_next_article_a_stopped_worker_held_renders_in_another(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    endless = "\n{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}\n"
    paths = [tmp_path / "slow.md", tmp_path / "next.md", tmp_path / "last.md"]
    paths[0].write_text(HEAD + endless, "utf-8")
    for p in paths[1:]:
        p.write_text(HEAD + '\n{{ per_gpu("6.1-0001", "gpt-oss-120b", "Server") }}\n', "utf-8")
    outs = render_articles(renderer(tiny, manifest, seconds=1.0), paths, jobs=1)
    assert outs[0].error == f"{paths[0]}:7: the article took longer than the limit of 1 s to render"
    assert [o.rendered is not None and "10,000" in o.rendered.markdown for o in outs[1:]] == [True, True]


def test_an_article_whose_worker_dies_is_an_error_and_the_ones_after_it_render(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    """Whether or not the worker held the next article already, and whenever this process
    notices it died: the article it died on is the error, the next ones render elsewhere."""
    paths = []
    for i in range(4):
        paths.append(tmp_path / f"a{i}.md")
        paths[-1].write_text(HEAD + f"\nArticle {i}\n", "utf-8")

    def crash_on_a1(r: Rendered) -> None:  # in the worker
        if r.article.path.name == "a1.md":
            os.kill(os.getpid(), 9)

    outs = render_articles(renderer(tiny, manifest), paths, jobs=1, after=crash_on_a1)
    assert outs[1].error == f"{paths[1]}: rendering stopped unexpectedly (signal 9)"
    assert [o.rendered is not None for o in outs] == [True, False, True, True]
