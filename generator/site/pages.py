"""The pages of a publication: home, articles, rounds, benchmarks, data, and the review view.

Readers' pages are in the navigation and the feed. The review view (``review/``) is built
with the site for editors, kept out of the navigation, the feed and search engines: every
printed figure highlighted with its formula and entries, each finding at its paragraph,
the compliance reports and the template line numbers.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import html
import re
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pandas as pd
import yaml

from generator.article.escape import attr, md, md_block, safe_url
from generator.article.footnotes import SUITE_NAMES, scenario_key, source_label
from generator.article.render import Rendered, loaded_files
from generator.article.tables import derived_tables
from generator.check import Finding, by_path
from generator.data.listing import listing_markdown
from generator.data.manifest import Manifest, Round
from generator.data.results import version_key
from generator.data.table import ResultsTable
from generator.errors import BuildError
from generator.project import CONFIG_NAME, read_mkdocs_yml
from generator.site.anchors import with_figure_ids, with_heading_ids
from generator.site.families import citing, families_index, families_of, family_sections, family_slug
from generator.site.feed import feed_text, xml_text
from generator.site.reader import (
    PUBLISHER,
    NoteContext,
    benchmarks_of,
    details_urls,
    entries_markdown,
    entries_page_name,
    entries_rounds,
    reader_markdown,
    rounds_of,
)
from generator.site.review import review_page

#: the chart's width in the SVG fallback (the drawn chart follows its column)
FALLBACK_WIDTH = 640
TRADEMARK = (
    "The MLPerf name and logo are registered and unregistered trademarks of MLCommons "
    "Association in the United States and other countries. All rights reserved. "
    "Unauthorized use strictly prohibited. See www.mlcommons.org for more information."
)


#: a byline names this many benchmarks at most; more are summarised ("27 benchmarks")
BYLINE_BENCHMARKS = 4


@dataclass(frozen=True)
class Publication:
    """What the pages take from the publication's ``mkdocs.yml``: its name (the home page's
    heading, the notes' "derived metrics computed by ..."), author and description.

    ``site_author: editors@example.org (Name)`` gives the feed's authors the e-mail address
    RSS 2.0 asks for: ``editors@example.org (Article Author)``."""

    name: str = PUBLISHER
    author: str = ""
    description: str = ""

    @property
    def email(self) -> str:
        m = re.fullmatch(r"(\S+@\S+\.\w+)(?:\s+\(.*\))?", self.author.strip())
        return m.group(1) if m else ""

    def feed_author(self, name: str) -> str:
        """An item's ``<author>``: ``e-mail (name)``; the publication's own for an article without one."""
        if not name:
            return self.author or self.name
        return f"{self.email} ({name})" if self.email else name


def load_publication(config_file: Path) -> Publication:
    """The :class:`Publication` of a ``mkdocs.yml`` (the defaults when it cannot be read)."""
    cfg = read_mkdocs_yml(config_file)

    def text(key: str) -> str:
        value = cfg.get(key)
        return str(value).strip() if isinstance(value, str | int | float) else ""

    return Publication(text("site_name") or PUBLISHER, text("site_author"), text("site_description"))


def publication_of(manifest: Manifest) -> Publication:
    """The publication whose ``data/`` the manifest was loaded from (``mkdocs.yml`` beside it)."""
    return load_publication(Path(manifest.data_dir).parent / CONFIG_NAME)


def titled(markdown: str, **meta: Any) -> str:
    """A generated page with its first heading as an escaped ``title`` in front matter: the
    theme prints a title taken from the heading into ``<title>`` with entities decoded."""
    if markdown.startswith("---\n"):
        return markdown
    m = re.search(r"(?m)^# (.+)$", markdown)
    if not m:
        return markdown
    plain = xml_text(html.unescape(re.sub(r"\\(.)", r"\1", m.group(1))))
    head = yaml.safe_dump({"title": attr(plain), **meta}, allow_unicode=True, default_flow_style=False)
    return f"---\n{head}---\n\n{markdown}"


def day(d: Any) -> str:
    """``2026-10-05`` → ``October 5, 2026``."""
    if isinstance(d, str):
        try:
            d = dt.date.fromisoformat(d)
        except ValueError:
            return md(d)
    if isinstance(d, dt.date):
        return f"{d:%B} {d.day}, {d.year}"
    return ""


def source_link(rnd: Round, table: ResultsTable | None = None) -> str:
    """The round's source as a link when it is an http(s) URL, else as text, named by the file
    *table* read (:func:`~generator.article.footnotes.source_label`)."""
    source = rnd.source_of()  # the round's page: its datacenter results, which link to the others
    url = safe_url(source)
    label = source_label(rnd, loaded_files(table).get(rnd.version, "") if table is not None else "")
    return f"[{md(label)}]({url})" if url else f"{md(source)} ({md(label)})"


def bench_slug(benchmark: str) -> str:
    return re.sub(r"[^a-z0-9.]+", "-", benchmark.lower()).strip("-") or "benchmark"


def refuse_shared_pages(table: ResultsTable) -> None:
    """Refuse, when the results are loaded, benchmark IDs that would share one page
    (``benchmarks/<slug>.html``): IDs that differ only in case or punctuation (``llama2-70b``,
    ``LLAMA2-70B``) were given one page, and the index linked one of them to the other's."""
    by_slug: dict[str, list[str]] = {}
    for b in sorted(set(table.df["benchmark"].tolist()), key=str):
        by_slug.setdefault(bench_slug(b), []).append(b)
    for slug, names in sorted(by_slug.items()):
        if len(names) > 1:
            df = table.df
            where = [
                f"{n!r} ({', '.join(sorted({_file_name(f) for f in df[df['benchmark'] == n]['source_file'].tolist()}))})"
                for n in names
            ]
            raise BuildError(
                f"the benchmark IDs {' and '.join(where)} differ only in case or punctuation and would share "
                f"the page benchmarks/{slug}.html; correct the benchmark ID in the results file"
            )


def _file_name(path: object) -> str:
    """A results file by its round folder and name: ``v6.1/summary_results.json``."""
    p = Path(str(path))
    return f"{p.parent.name}/{p.name}"


def by_id(benchmarks: Iterable[str]) -> list[str]:
    """Benchmarks in the order the site lists them: by their official ID, which names them in the
    navigation, the home page, bylines and the feed (the same way for every benchmark)."""
    return sorted(set(benchmarks), key=str.lower)


def published(rendered: list[Rendered], sample: bool) -> list[Rendered]:
    """The articles of the reader's site: a demo for the embedded sample (front matter
    ``sample_only: true``) only when the site is built on the sample."""
    return [r for r in rendered if sample or not r.article.meta.get("sample_only")]


def front_matter(r: Rendered, pub: Publication) -> dict[str, Any]:
    """Title, description, date and author for the theme and the feed; rounds and benchmarks.

    ``author`` is the feed's (``e-mail (name)``, see :class:`Publication`), ``author_name`` the
    theme's (OpenGraph ``article:author``)."""
    meta: dict[str, Any] = {}
    for k in ("title", "description", "date"):
        if k in r.article.meta:
            v = r.article.meta[k]
            meta[k] = v.isoformat() if hasattr(v, "isoformat") else attr(xml_text(str(v)))
    if r.errata and not r.missing:  # the feed item's description says so first
        desc = str(r.article.meta.get("description", "")).strip()
        meta["description"] = attr(xml_text(f"{errata_summary(r)} {desc}".strip()))
    name = xml_text(str(r.article.meta.get("author", "")).strip())
    if name:
        meta["author_name"] = attr(name)
    meta["author"] = attr(xml_text(pub.feed_author(name)))
    meta["rounds"] = [f"v{v}" for v in rounds_of(r)]
    meta["benchmarks"] = [attr(xml_text(b)) for b in by_id(benchmarks_of(r))]
    # the feed's text of the article: plain text, escaped as every text of front matter is (the
    # JSON feed's content_html is HTML; the RSS feed's template reads it back, then escapes it once)
    text = feed_text(r.article.meta, r.markdown)
    if r.errata and not r.missing:  # the feed item says so first
        text = f"{errata_summary(r)} {text}".strip()
    meta["rss"] = {"feed_description": attr(text)}
    return meta


def byline(r: Rendered, up: str = "") -> str:
    """Date · author · rounds · benchmarks, with links to the round and benchmark pages (more
    than :data:`BYLINE_BENCHMARKS` benchmarks are summarised, linked to the list of benchmarks)."""
    parts = [x for x in (day(r.article.meta.get("date")), md(str(r.article.meta.get("author", "")))) if x]
    # an article that was not built names the rounds it needs, which may have no page: no links then
    rounds = ", ".join(f"v{v}" if r.missing else f"[v{v}]({up}rounds/v{v}.md)" for v in rounds_of(r))
    cited = by_id(benchmarks_of(r))
    if len(cited) > BYLINE_BENCHMARKS:
        benches = f"[{len(cited)} benchmarks]({up}benchmarks/index.md)"
    else:
        benches = ", ".join(f"[{md(b)}]({up}benchmarks/{bench_slug(b)}.md)" for b in cited)
    if rounds:
        parts.append(f"MLPerf® Inference {rounds}")
    if benches:
        parts.append(benches)
    return " · ".join(parts)


#: the page of an article that was not built (the rounds it cites were not loaded): not an article
#: of the publication yet, so not in the feed (the rss plugin leaves drafts out), the sitemap (it
#: leaves out pages marked noindex) or search
UNBUILT_META: dict[str, Any] = {"draft": True, "robots": "noindex", "search": {"exclude": True}}


def refuse_unpublishing(rendered: list[Rendered], sample: bool, site: Path) -> None:
    """Refuse a build that would take back an article the site in *site* publishes (its page is in
    that site's sitemap) because the article cannot be built now: given results without a round it
    cites (a mistyped ``--results``, a round missing from it), the build replaced the article with
    a page saying it was not built, and kept it in the feed and the sitemap."""
    lost = [r for r in published(rendered, sample) if r.missing]
    if not lost:
        return
    listed = published_pages(site / "sitemap.xml")
    for r in lost:
        if {f"{r.article.slug}.html", f"{r.article.slug}/"} & listed:
            raise BuildError(
                f"{r.article.path}: published in {site} (its sitemap lists it) and not built now: {r.missing}; "
                f"the previous site is left as it was (to take the article back, remove it from content/)"
            )


def published_pages(sitemap: Path) -> set[str]:
    """The last part of each page URL a site's sitemap lists (``tiny.html``, ``tiny/``); none when
    it has no sitemap, or one that cannot be read."""
    try:
        root = ElementTree.fromstring(sitemap.read_bytes())
    except (OSError, ElementTree.ParseError):
        return set()
    out = set()
    for loc in root.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc"):
        path = urllib.parse.urlsplit((loc.text or "").strip()).path
        if path.endswith("/"):
            out.add(path.rstrip("/").rsplit("/", 1)[-1] + "/")
        else:
            out.add(path.rsplit("/", 1)[-1])
    return out


#: the provenance appendix of a rendered article (generator.article.render.provenance_appendix)
PROVENANCE = re.compile(r'(?ms)^<details class="gi-provenance".*?^</details>\n*')


def without_provenance(markdown: str) -> str:
    """The reader's page without the provenance appendix: the review view and ``figures.json``
    keep it (on the round overview it was 613 KB of the page's 1.3 MB of HTML)."""
    return PROVENANCE.sub("", markdown).rstrip("\n") + "\n"


def article_page(r: Rendered, ctx: NoteContext, pub: Publication) -> str:
    """The reader's page: front matter, the byline under the title, reader-grade footnotes."""
    meta = front_matter(r, pub)
    if r.missing:  # a page saying what it needs, not an article: out of the feed, sitemap and search
        meta |= UNBUILT_META
    head = yaml.safe_dump(meta, sort_keys=True, allow_unicode=True, default_flow_style=False)
    body = (
        r.markdown
        if r.missing
        else without_provenance(reader_markdown(dataclasses.replace(r, markdown=reader_source(r)), ctx))
    )
    line = byline(r)
    if line and not r.missing:
        body = re.sub(
            r"(?m)^(# .+)$",
            lambda m: f'{m.group(1)}\n\n<p class="gi-byline" markdown="1">{line}</p>',
            body,
            count=1,
        )
    return f"---\n{head}---\n\n{body}"


def reader_source(r: Rendered) -> str:
    """The rendered article the reader's page is made from: headings anchored by their words, not
    the numbers they print, and figures by their number (:mod:`generator.site.anchors`); under
    each table that prints figures, a link to it as CSV (:func:`table_files`)."""
    lines = with_heading_ids(r).split("\n")  # line for line the rendered Markdown's
    for t in derived_tables(r.markdown, r.uses):
        name = table_csv_name(r.article.slug, t.number)
        what = t.title or "this table"
        lines[t.end] += (
            f'\n\n[Download {what} as CSV]({name}){{: download="{name.rsplit("/", 1)[-1]}" }}'
            " (the cells as printed, and the entry IDs each row cites)\n{: .gi-table-csv }"
        )
    # the appendix lists the entries of every figure: out of search, whose answer to an entry ID it was
    text = "\n".join(lines).replace(
        '<details class="gi-provenance"', '<details class="gi-provenance" data-search-exclude'
    )
    return with_figure_ids(text)


def table_csv_name(slug: str, number: int) -> str:
    """Where an article's derived table *number* is written as CSV: ``tables/<slug>-<number>.csv``."""
    return f"tables/{slug}-{number}.csv"


def table_files(r: Rendered) -> list[tuple[str, PageMaker]]:
    """The CSV file of each table of *r* that prints figures, written with the pages."""
    return [(table_csv_name(r.article.slug, t.number), t.csv) for t in derived_tables(r.markdown, r.uses)]


def _by_date(rendered: list[Rendered]) -> list[Rendered]:
    return sorted(rendered, key=lambda r: (str(r.article.meta.get("date", "")), r.article.slug), reverse=True)


def article_item(r: Rendered, up: str = "") -> list[str]:
    """One article in a list: linked title, byline, description."""
    note = " *(not built: official results needed)*" if r.missing else ""
    out = [f"### [{md(r.article.title)}]({up}{r.article.slug}.md){note}", ""]
    line = byline(r, up)
    if line:
        out += [f'<p class="gi-byline" markdown="1">{line}</p>', ""]
    if r.errata:
        out += [f'<p class="gi-erratum-note" markdown="1">{errata_note(r, up)}</p>', ""]
    desc = r.article.meta.get("description")
    if desc:
        out += [md_block(str(desc)), ""]
    return out


def errata_note(r: Rendered, up: str = "") -> str:
    """What a listing says of an article with errata: published claims the official results contradict."""
    n = len(r.errata)
    what = "a sentence" if n == 1 else f"{n} sentences"
    return (
        f"**Erratum:** the official results contradict {what} of this article, marked in its text; "
        f"see [the errata]({up}{r.article.slug}.md#errata)."
    )


def errata_summary(r: Rendered) -> str:
    """The same, as plain text, where a feed item's description begins."""
    n = len(r.errata)
    what = "a sentence" if n == 1 else f"{n} sentences"
    return f"Erratum: the official results contradict {what} of this article, marked in its text."


def index_page(rendered: list[Rendered], table: ResultsTable, sample: bool, pub: Publication) -> str:
    """The home page: the articles, newest first, then the rounds and the benchmarks they cite."""
    intro = (
        md_block(pub.description)
        if pub.description
        else "Per-GPU readings of official MLPerf® Inference results."
    )
    lines = [f"# {md(pub.name)}", "", f"{intro.rstrip('.')}.", ""]
    if sample:
        lines += [
            '!!! note "Built from the embedded sample"',
            "    This site was built from the embedded sample, a few rows transcribed from a published "
            "article, not from official results files. Build with `--results DIR` for publication.",
            "",
        ]
    lines += ["## Articles", ""]
    for r in _by_date(rendered):
        lines += article_item(r)
    lines += ["## Rounds and benchmarks", ""]
    lines += [f"- [MLPerf® Inference v{v}](rounds/v{v}.md)" for v in reversed(table.rounds)]
    cited = by_id(b for r in rendered for b in benchmarks_of(r))
    if cited:
        n = "one benchmark" if len(cited) == 1 else f"{len(cited)} benchmarks"
        lines.append(f"- [The {n} the articles cite](benchmarks/index.md), with their rounds and units")
    lines.append("- [Accelerator families](families/index.md), each with its results in every round")
    return "\n".join(lines) + "\n"


Counts = tuple[int, int, int, int]


def _counts_by(rows: pd.DataFrame, by: tuple[str, ...] = ()) -> dict[tuple[Any, ...], Counts]:
    """:func:`_counts` of each group of *rows* by the columns *by*, in the groups' sorted order
    (in one pass in plain Python: a pandas group costs about a millisecond, and a round's pages
    count a dozen groups; values that are missing are not counted, as pandas' nunique does not)."""
    n = len(rows)
    keys = list(zip(*(rows[c].tolist() for c in by), strict=True)) if by else [()] * n
    missing = rows["id_missing"].tolist() if "id_missing" in rows else [False] * n
    columns = (rows["submitter"].tolist(), rows["result_id"].tolist(), rows["benchmark"].tolist())
    groups: dict[tuple[Any, ...], tuple[set[Any], set[Any], set[Any], list[int]]] = {}
    for key, submitter, rid, benchmark, miss in zip(keys, *columns, missing, strict=True):
        g = groups.get(key)
        if g is None:
            g = groups[key] = (set(), set(), set(), [0])
        g[0].add(submitter)
        if not miss:
            g[1].add(rid)
        g[2].add(benchmark)
        g[3][0] += 1
    return {k: (_present(a), _present(b), _present(c), m[0]) for k, (a, b, c, m) in sorted(groups.items())}


def _present(values: set[Any]) -> int:
    """How many of *values* are not missing (None, NaN: the table's text columns hold text)."""
    return sum(1 for v in values if isinstance(v, str))


def _counts(rows: pd.DataFrame) -> Counts:
    """Submitters, systems (entry IDs), benchmarks and results (rows) of some rows of the table."""
    return _counts_by(rows).get((), (0, 0, 0, 0))


def suite_label(division: Any, suite: Any) -> str:
    """``("closed", "datacenter")`` -> ``"Closed Datacenter"``."""
    return f"{str(division).capitalize()} {SUITE_NAMES.get(str(suite), str(suite).capitalize())}"


def round_facts(version: str, table: ResultsTable) -> list[str]:
    """Submitters, systems, benchmarks and results of a round, per division and suite."""
    df = table.of_round(version)
    lines = ["| Division, suite | Submitters | Systems | Benchmarks | Results |", "|---|--:|--:|--:|--:|"]
    for (division, suite), counts in _counts_by(df, ("division", "suite")).items():
        lines.append(f"| {md(suite_label(division, suite))} | {' | '.join(f'{n:,}' for n in counts)} |")
    lines.append(f"| All | {' | '.join(f'{n:,}' for n in _counts(df))} |")
    return lines


def round_page(version: str, rendered: list[Rendered], manifest: Manifest, table: ResultsTable) -> str:
    """A round: its dates and source, its submitters, systems and benchmarks, the articles citing it."""
    lines = [f"# MLPerf® Inference v{version}", ""]
    rnd = manifest.rounds.get(version)
    if rnd is not None:
        lines += [
            f"Published {day(rnd.published)}; retrieved from {source_link(rnd, table)} on {day(rnd.retrieved)}.",
            "",
        ]
        lines += [_round_compat(version, rnd, manifest, table), ""]
    lines += [
        *round_facts(version, table),
        "",
        f"Systems are counted by entry ID. Every benchmark and scenario with its row count, and the "
        f"names articles use, are on [the page of v{version} as loaded](../data/v{version}.md).",
        "",
        "## Articles",
        "",
    ]
    using = [r for r in _by_date(rendered) if version in rounds_of(r)]
    for r in using:
        lines += article_item(r, "../")
    if not using:
        lines += ["No article cites this round yet.", ""]
    return "\n".join(lines) + "\n"


def benchmark_facts(benchmark: str, manifest: Manifest, table: ResultsTable) -> list[str]:
    """The rounds that have a benchmark, with its scenarios, units and counts; its latency bounds."""
    df = table.df[table.df["benchmark"] == benchmark]
    lines = ["| Round | Scenarios | Units | Submitters | Systems | Results |", "|---|---|---|--:|--:|--:|"]
    counts = _counts_by(df, ("round",))
    scenarios: dict[str, set[str]] = {v: set() for (v,) in counts}
    units_of: dict[str, set[str]] = {v: set() for (v,) in counts}
    for v, scenario, unit in zip(
        df["round"].tolist(), df["scenario"].tolist(), df["units"].tolist(), strict=True
    ):
        scenarios[v].add(scenario)
        units_of[v].add(unit)
    for v in sorted(scenarios, key=version_key, reverse=True):
        scen = sorted(scenarios[v], key=scenario_key)
        units = ", ".join(md(str(u)) for u in sorted(units_of[v]))
        submitters, systems, _, results = counts[(v,)]
        lines.append(
            f"| [v{v}](../rounds/v{v}.md) | {md(', '.join(scen))} | {units} | "
            f"{submitters:,} | {systems:,} | {results:,} |"
        )
    present = {s for ss in scenarios.values() for s in ss}
    return (
        lines + latency_bounds(benchmark, present, manifest) + _benchmark_compat(benchmark, manifest, table)
    )


#: the scenarios whose runs the inference rules bound by latency (a Server or Interactive run is
#: valid only within them; Offline has none, SingleStream and MultiStream report a latency)
BOUNDED_SCENARIOS = ("Server", "Interactive")


def latency_bounds(benchmark: str, scenarios: Iterable[str], manifest: Manifest) -> list[str]:
    """The latency bounds of each bounded scenario a benchmark has (``data/benchmarks.toml``), and
    the scenarios whose bounds the publication's sources do not state: a bound is never guessed.

    ``Server: TTFT 3,000 ms, TPOT 80 ms`` then ``Not stated in this publication's sources: Interactive``."""
    rule = manifest.rules.benchmarks.get(benchmark)
    latency = rule.latency if rule else {}
    bounded = sorted((s for s in set(scenarios) | set(latency) if s in BOUNDED_SCENARIOS), key=scenario_key)
    known = [s for s in bounded if latency.get(s)]
    unknown = [s for s in bounded if not latency.get(s)]
    out = []
    if known:
        stated = "; ".join(
            f"{md(s)}: "
            + ", ".join(f"{md(k.removesuffix('_ms').upper())} {_number(v)} ms" for k, v in latency[s].items())
            for s in known
        )
        out.append(f"Latency bounds of the inference rules: {stated}.")
    if unknown:
        which = " and ".join(md(s) for s in unknown)
        out.append(
            f"The latency bounds of the inference rules for {which} are not stated in the sources this "
            "publication holds."
        )
    return ["", " ".join(out)] if out else []


def _number(v: float) -> str:
    """A bound as the rules print it: ``3000`` → ``3,000``, ``0.5`` → ``0.5``."""
    return f"{v:,.0f}" if float(v).is_integer() else f"{v:,g}"


def _round_compat(version: str, rnd: Round, manifest: Manifest, table: ResultsTable) -> str:
    """Which earlier rounds a round's results may be compared with: the Compatibility Table's
    word per benchmark and suite, and the publisher's for a round newer than the table."""
    last = manifest.compat.last
    text = (
        "Which of its results may be compared with an earlier round's is decided per benchmark "
        "and suite by the MLPerf® Compatibility Table (each benchmark's page gives its compatible rounds)."
    )
    if version_key(version) > version_key(last):
        earlier = ", ".join(f"[v{v}](v{v}.md)" for v in rnd.compatible_with if v in table.rounds)
        text += (
            f" The table ends at v{md(last)}; for a benchmark whose compatible span reaches v{md(last)}, "
            + (
                f"this publication compares v{version} with {earlier}."
                if earlier
                else f"no earlier round is compared with v{version}."
            )
        )
    return text


def _compatible_with(manifest: Manifest, version: str) -> tuple[str, ...]:
    rnd = manifest.rounds.get(version)
    return rnd.compatible_with if rnd else ()


def _benchmark_compat(benchmark: str, manifest: Manifest, table: ResultsTable) -> list[str]:
    """The benchmark's compatible spans per suite (MLPerf® Compatibility Table), with the loaded
    rounds newer than the table that continue a span reaching its last round."""
    out = []
    for suite in ("datacenter", "edge"):
        row = manifest.compat.row(benchmark, suite)
        if row is None:
            continue
        spans = [str(s) for s in row.spans]
        if row.spans and row.spans[-1].last == manifest.compat.last:
            later = [
                v
                for v in table.rounds
                if version_key(v) > version_key(manifest.compat.last)
                and any(row.spans[-1].holds(w) for w in _compatible_with(manifest, v))
            ]
            if later:
                spans[-1] += " (continued by " + ", ".join(f"v{v}" for v in later) + ")"
        out.append(f"{suite.title()}: {md(', '.join(spans))} (row '{md(row.model)}')")
    if not out:
        return [
            "",
            "The MLPerf® Compatibility Table does not list this benchmark: its results are not compared across rounds.",
        ]
    return [
        "",
        "Rounds whose results may be compared with one another (MLPerf® Compatibility Table): "
        + "; ".join(out)
        + ".",
    ]


def benchmark_page(benchmark: str, rendered: list[Rendered], manifest: Manifest, table: ResultsTable) -> str:
    """A benchmark: the rounds that have it, its units and bounds, the articles citing it."""
    name = manifest.rules.display_name(benchmark)
    lines = [f"# {md(name)}", ""]
    if name != benchmark:
        lines += [f"Official benchmark ID: {md(benchmark)}.", ""]
    lines += [*benchmark_facts(benchmark, manifest, table), "", "## Articles", ""]
    for r in _by_date(rendered):
        if benchmark in benchmarks_of(r):
            lines += article_item(r, "../")
    return "\n".join(lines) + "\n"


def family_page(
    family: str, table: ResultsTable, manifest: Manifest, articles: list[Rendered], pub: Publication
) -> str:
    """An accelerator family: its rows in every round loaded, the articles citing it
    (:mod:`generator.site.families`)."""
    lines = [*family_sections(family, table, manifest, pub.name), "", "## Articles", ""]
    for r in _by_date(articles):
        lines += article_item(r, "../")
    if not articles:
        lines += ["No article cites this family yet.", ""]
    return "\n".join(lines + [TRADEMARK]) + "\n"


def _family(
    family: str, table: ResultsTable, manifest: Manifest, articles: list[Rendered], pub: Publication
) -> str:
    desc = f"Every official MLPerf® Inference result of {family} systems, round by round, and the articles citing them."
    return titled(family_page(family, table, manifest, articles, pub), description=attr(desc))


def _families_index(table: ResultsTable, manifest: Manifest, cited: dict[str, list[Rendered]]) -> str:
    desc = "The accelerator families of the official MLPerf® Inference results, each with its results in every round."
    return titled(families_index(table, manifest, cited), description=desc)


def benchmarks_index(benchmarks: list[str], manifest: Manifest, table: ResultsTable) -> str:
    """Every benchmark the articles cite: its name, the rounds that have it and its units."""
    lines = [
        "# Benchmarks",
        "",
        "The MLPerf® Inference benchmarks the articles cite, by official benchmark ID.",
        "",
        "| Benchmark | Name | Rounds | Units |",
        "|---|---|---|---|",
    ]
    for b in benchmarks:
        rows = table.df[table.df["benchmark"] == b]
        rounds = ", ".join(f"v{v}" for v in sorted(rows["round"].unique(), key=version_key, reverse=True))
        units = ", ".join(md(str(u)) for u in sorted(rows["units"].unique()))
        lines.append(
            f"| [{md(b)}]({bench_slug(b)}.md) | {md(manifest.rules.display_name(b))} | {rounds} | {units} |"
        )
    return "\n".join(lines) + "\n"


def data_page(table: ResultsTable, version: str, manifest: Manifest) -> str:
    rep = table.report(version)
    df = table.of_round(version)
    rnd = manifest.rounds.get(version)
    lines = [f"# MLPerf® Inference v{version} results as loaded", ""]
    if rep:
        lines += [md(rep.summary_line(f"v{version}/{rep.path.name}")), ""]
    if rnd:
        lines += [
            f"Published {day(rnd.published)}; retrieved from {source_link(rnd, table)} on {day(rnd.retrieved)}.",
            "",
        ]
    lines += scenario_rows(df)
    lines += ["", *listing_markdown(table, version)]  # the names templates use
    return "\n".join(lines + ["", TRADEMARK]) + "\n"


def scenario_rows(df: pd.DataFrame) -> list[str]:
    """The rows of each benchmark, a column per scenario (in the site's order: :func:`scenario_key`)
    and their total: one table per division and suite, with the scenarios it has (one line per
    benchmark, not per scenario; in the official rounds five columns, which a phone shows without
    scrolling)."""
    counts = {k: c[3] for k, c in _counts_by(df, ("division", "suite", "benchmark", "scenario")).items()}
    lines = ["## Rows per benchmark and scenario"]
    for division, suite in dict.fromkeys(k[:2] for k in counts):  # sorted, as the counts are
        mine = {k[2:]: n for k, n in counts.items() if k[:2] == (division, suite)}
        present = {scenario for _, scenario in mine}
        scenarios = sorted(present, key=scenario_key)
        lines += [
            "",
            f"### {md(suite_label(division, suite))}",
            "",
            f"| Benchmark | {' | '.join(md(str(s)) for s in scenarios)} | Rows |",
            f"|---|{'--:|' * len(scenarios)}--:|",
        ]
        for bench in dict.fromkeys(b for b, _ in mine):
            cells = [f"{mine[(bench, s)]:,}" if (bench, s) in mine else "" for s in scenarios]
            total = sum(mine.get((bench, s), 0) for s in scenarios)
            lines.append(f"| {md(str(bench))} | {' | '.join(cells)} | {total:,} |")
    return lines


def rounds_index(rendered: list[Rendered], manifest: Manifest, table: ResultsTable) -> str:
    """Every round loaded, newest first: its publication date, counts and the articles citing it."""
    lines = [
        "# MLPerf® Inference rounds",
        "",
        "Every round of results this site loaded, newest first; systems are counted by entry ID.",
        "",
        "| Round | Published | Submitters | Systems | Benchmarks | Results | Articles |",
        "|---|---|--:|--:|--:|--:|--:|",
    ]
    citing = Counter(v for r in rendered for v in rounds_of(r))
    for v in sorted(table.rounds, key=version_key, reverse=True):
        rnd = manifest.rounds.get(v)
        counts = " | ".join(f"{n:,}" for n in _counts(table.of_round(v)))
        lines.append(f"| [v{v}](v{v}.md) | {day(rnd.published) if rnd else ''} | {counts} | {citing[v]:,} |")
    return "\n".join(lines + ["", TRADEMARK]) + "\n"


def data_index(table: ResultsTable, manifest: Manifest) -> str:
    """Every round's results as loaded, newest first: the file, the rows kept, the retrieval date."""
    lines = [
        "# MLPerf® Inference results as loaded",
        "",
        "Each round's official results file as this site loaded it, newest first; each page lists "
        "the rows per benchmark and scenario, and the names articles use.",
        "",
        "| Round | File | Rows | Retrieved |",
        "|---|---|--:|---|",
    ]
    for v in sorted(table.rounds, key=version_key, reverse=True):
        rep, rnd = table.report(v), manifest.rounds.get(v)
        file = md(rep.path.name) if rep else ""
        rows = f"{rep.rows:,}" if rep else ""
        lines.append(f"| [v{v} as loaded](v{v}.md) | {file} | {rows} | {day(rnd.retrieved) if rnd else ''} |")
    return "\n".join(lines + ["", TRADEMARK]) + "\n"


def review_index(rendered: list[Rendered], shown: set[str]) -> str:
    lines = [
        "# Editor's review",
        "",
        "Not part of the published site: not in its navigation, feed or search. Each article with every "
        "printed figure highlighted (formula, entries and template line on hover) and each finding of the "
        "compliance check at its paragraph.",
        "",
    ]
    for r in rendered:
        report = "not built" if r.missing else f"[compliance report](compliance-{r.article.slug}.md)"
        if r.errata:
            report += f" · **{len(r.errata)} {'erratum' if len(r.errata) == 1 else 'errata'}**"
        demo = "" if r.article.slug in shown else " · a demo for the embedded sample, not published"
        lines.append(f"- [{md(r.article.title)}]({r.article.slug}.md) · {report}{demo}")
    lines += ["- [Compliance rules](rules.md)", "- [Placeholder reference](placeholders.md)"]
    return "\n".join(lines) + "\n"


REVIEW_META = {
    "robots": "noindex",
    "search": {"exclude": True},
    "description": attr("The editor's review view of the publication: not part of the published site."),
}


#: the pages of each round as loaded list the same names round after round: in search, they would
#: answer a name once per round (and make the index grow with the rounds); the round's own page,
#: in search, links to them
DATA_META = {"search": {"exclude": True}}


PageMaker = Callable[[], str]


def page_makers(
    rendered: list[Rendered],
    table: ResultsTable,
    manifest: Manifest,
    sample: bool,
    findings: list[Finding],
    publication: Publication | None = None,
) -> list[tuple[str, PageMaker]]:
    """Every generated page except reports and extras, as (name, what makes its Markdown with
    front matter): each page can be made anywhere, in any order (the build makes them in
    worker processes, which write them). *publication* defaults to the ``mkdocs.yml`` beside
    the manifest's ``data/``."""
    pub = publication or publication_of(manifest)
    shown = published(rendered, sample)
    slugs = {r.article.slug for r in shown}
    ctx = NoteContext(
        manifest, _display(rendered, manifest), details_urls(table), pub.name, loaded_files(table)
    )
    # no title in front matter: the theme titles the home page with the site's name alone
    pages: list[tuple[str, PageMaker]] = [("index.md", lambda: index_page(shown, table, sample, pub))]
    grouped = by_path(findings)  # once: not every finding read for every article
    for r in rendered:
        if r.article.slug in slugs:
            pages.append((f"{r.article.slug}.md", functools.partial(article_page, r, ctx, pub)))
            for v in [] if r.missing else entries_rounds(r):  # the entries its notes collapse, linked
                pages.append((entries_page_name(r.article.slug, v), functools.partial(_entries, r, ctx, v)))
            pages += [] if r.missing else table_files(r)
        mine = grouped.get(str(r.article.path), [])
        pages.append(
            (f"review/{r.article.slug}.md", functools.partial(_review, r, mine, r.article.slug in slugs))
        )
    pages.append(("review/index.md", lambda: titled(review_index(rendered, slugs), **REVIEW_META)))
    for v in table.rounds:
        pages.append((f"rounds/v{v}.md", functools.partial(_round, v, shown, manifest, table)))
        pages.append((f"data/v{v}.md", functools.partial(_data, v, manifest, table)))
    if len(table.rounds) > NAV_ROUNDS:  # the navigation names the newest only
        pages.append(("rounds/index.md", functools.partial(_rounds_index, shown, manifest, table)))
        pages.append(("data/index.md", functools.partial(_data_index, table, manifest)))
    cited = by_id(b for r in shown for b in benchmarks_of(r))
    if cited:
        desc = "The MLPerf® Inference benchmarks the articles cite, with their rounds and units."
        pages.append(
            (
                "benchmarks/index.md",
                lambda: titled(benchmarks_index(cited, manifest, table), description=desc),
            )
        )
    for b in cited:
        pages.append(
            (f"benchmarks/{bench_slug(b)}.md", functools.partial(_benchmark, b, shown, manifest, table))
        )
    by_family = citing(shown)
    pages.append(("families/index.md", functools.partial(_families_index, table, manifest, by_family)))
    for fam in families_of(table):
        page = functools.partial(_family, fam, table, manifest, by_family.get(fam, []), pub)
        pages.append((f"families/{family_slug(fam)}.md", page))
    return pages


def _entries(r: Rendered, ctx: NoteContext, version: str) -> str:
    desc = f"The MLPerf® Inference v{version} entries cited by {r.article.title}, each linked to its official result."
    # a list of entry IDs: in search, a wall of highlighted "6.1" for any entry ID (as data pages)
    return titled(entries_markdown(r, ctx, version), description=attr(xml_text(desc)), **DATA_META)


def _review(r: Rendered, findings: list[Finding], published: bool) -> str:
    return titled(review_page(r, findings, published=published), **REVIEW_META)


def _round(v: str, shown: list[Rendered], manifest: Manifest, table: ResultsTable) -> str:
    return titled(round_page(v, shown, manifest, table), description=round_description(v, table))


def _data(v: str, manifest: Manifest, table: ResultsTable) -> str:
    return titled(
        data_page(table, v, manifest),
        description=f"The MLPerf® Inference v{v} results as loaded: rows per division, suite, benchmark "
        "and scenario, and the names articles use.",
        **DATA_META,
    )


def _rounds_index(shown: list[Rendered], manifest: Manifest, table: ResultsTable) -> str:
    desc = "Every MLPerf® Inference round of results this site loaded, and the articles citing each."
    return titled(rounds_index(shown, manifest, table), description=desc)


def _data_index(table: ResultsTable, manifest: Manifest) -> str:
    desc = "Every MLPerf® Inference round's official results file as this site loaded it."
    return titled(data_index(table, manifest), description=desc, **DATA_META)


def _benchmark(b: str, shown: list[Rendered], manifest: Manifest, table: ResultsTable) -> str:
    desc = f"MLPerf® Inference {b}: the rounds with results, their scenarios and units, and the articles citing it."
    return titled(benchmark_page(b, shown, manifest, table), description=attr(desc))


def round_description(version: str, table: ResultsTable) -> str:
    submitters, systems, benchmarks, results = _counts(table.of_round(version))
    return (
        f"MLPerf® Inference v{version}: {_n(results, 'result')} of {_n(systems, 'system')} from "
        f"{_n(submitters, 'submitter')} in {_n(benchmarks, 'benchmark')}, and the articles citing them."
    )


def _n(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _display(rendered: list[Rendered], manifest: Manifest) -> dict[str, str]:
    return {b: manifest.rules.display_name(b) for r in rendered for b in benchmarks_of(r)}


def is_sample(table: ResultsTable) -> bool:
    """Whether the table was loaded from an embedded sample (its folder holds ``SAMPLE``)."""
    return any((rep.path.parent.parent / "SAMPLE").exists() for rep in table.reports)


#: the most articles the navigation lists in one section: a site with more groups them by the
#: newest round each cites (newest first), so that a page carries its own round's links and
#: the other rounds' titles (Material prunes the rest), not a link to every article: a flat
#: list made each article page's navigation grow with the site (200 articles: 205 links a page,
#: half the time of putting an article into the theme)
NAV_ARTICLES = 20

#: the most rounds the navigation names in a section (three years of two rounds a year): on a
#: site with more, Rounds and Data list the newest and an index of all of them, and the articles
#: of older rounds go into one section, "Earlier rounds"; every page carries its navigation, so
#: a link per round in each section made every page grow with the data (40 rounds: 120 links a
#: page, a third of what 35 more rounds added to building 200 articles)
NAV_ROUNDS = 6


def articles_nav(shown: list[Rendered]) -> list[dict[str, Any]]:
    """The navigation's articles, newest first: one list, or one section per newest cited round
    (past :data:`NAV_ROUNDS` sections, the older rounds' in a section of their own)."""
    ordered = _by_date(shown)
    # the navigation's title is the page's, which the feed prints: no character XML forbids
    item = [{attr(xml_text(r.article.title)): f"{r.article.slug}.md"} for r in ordered]
    if len(item) <= NAV_ARTICLES:
        return item
    groups: dict[str, list[dict[str, str]]] = {}
    for r, it in zip(ordered, item, strict=True):
        cited = rounds_of(r)
        groups.setdefault(cited[0] if cited else "", []).append(it)
    newest = sorted((v for v in groups if v), key=version_key, reverse=True)
    nav: list[dict[str, Any]] = [{f"v{v}": groups[v]} for v in newest]
    if len(nav) > NAV_ROUNDS:
        nav[NAV_ROUNDS - 1 :] = [{"Earlier rounds": nav[NAV_ROUNDS - 1 :]}]
    return nav + ([{"Other articles": groups[""]}] if "" in groups else [])


#: the pages listing every round, in the navigation of a site with more than NAV_ROUNDS
ROUNDS_INDEX = {"All rounds": "rounds/index.md"}
DATA_INDEX = {"All rounds as loaded": "data/index.md"}


def rounds_nav(
    versions: list[str], item: Callable[[str], dict[str, str]], index: dict[str, str]
) -> list[dict[str, str]]:
    """A section of one page per round (*item* of its version), newest first: every round, or
    past :data:`NAV_ROUNDS`, the *index* of all and the newest."""
    newest = sorted(versions, key=version_key, reverse=True)
    if len(newest) <= NAV_ROUNDS:
        return [item(v) for v in newest]
    return [index] + [item(v) for v in newest[: NAV_ROUNDS - 1]]


def site_nav(
    rendered: list[Rendered],
    table: ResultsTable,
    manifest: Manifest,
    *,
    changes: bool,
    sample: bool | None = None,
) -> list[dict[str, Any]]:
    """The reader's navigation: home, articles, rounds, benchmarks, data (the review view is not in it).

    *sample* (whether the table is the embedded sample) is found from the table when not given."""
    shown = published(rendered, is_sample(table) if sample is None else sample)
    nav: list[dict[str, Any]] = [{"Home": "index.md"}]
    nav.append({"Articles": articles_nav(shown)})
    nav.append({"Rounds": rounds_nav(table.rounds, lambda v: {f"v{v}": f"rounds/v{v}.md"}, ROUNDS_INDEX)})
    cited = by_id(b for r in shown for b in benchmarks_of(r))
    if cited:
        items = [{"All benchmarks": "benchmarks/index.md"}]
        items += [{attr(b): f"benchmarks/{bench_slug(b)}.md"} for b in cited]
        nav.append({"Benchmarks": items})
    families = [f for f in families_of(table) if f in citing(shown)]  # the ones the articles cite
    items = [{"All accelerator families": "families/index.md"}]
    nav.append({"Accelerators": items + [{attr(f): f"families/{family_slug(f)}.md"} for f in families]})
    nav.append({"Data": rounds_nav(table.rounds, lambda v: {f"v{v} as loaded": f"data/v{v}.md"}, DATA_INDEX)})
    if changes:
        nav.append({"Changes": "changes.md"})
    return nav


def fallback_spec(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec drawn into the static SVG: a fixed width where the page's chart follows its column."""
    out = dict(spec)
    if out.get("width") == "container":
        out["width"] = FALLBACK_WIDTH
    return out
