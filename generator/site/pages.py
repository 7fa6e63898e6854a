"""The pages of a publication: home, articles, rounds, benchmarks, data, and the review view.

Readers' pages are in the navigation and the feed. The review view (``review/``) is built
with the site for editors, kept out of the navigation, the feed and search engines: every
printed figure highlighted with its formula and entries, each finding at its paragraph,
the compliance reports and the template line numbers.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from typing import Any

import yaml

from generator.article.escape import attr, md, safe_url
from generator.article.render import Rendered
from generator.check import Finding
from generator.data.listing import listing_markdown
from generator.data.manifest import Manifest, Round
from generator.data.table import ResultsTable
from generator.site.reader import NoteContext, benchmarks_of, details_urls, reader_markdown, rounds_of
from generator.site.review import review_page

#: the chart's width in the SVG fallback (the drawn chart follows its column)
FALLBACK_WIDTH = 640
TRADEMARK = (
    "The MLPerf name and logo are registered and unregistered trademarks of MLCommons "
    "Association in the United States and other countries. All rights reserved. "
    "Unauthorized use strictly prohibited. See www.mlcommons.org for more information."
)


def titled(markdown: str, **meta: Any) -> str:
    """A generated page with its first heading as an escaped ``title`` in front matter: the
    theme prints a title taken from the heading into ``<title>`` with entities decoded."""
    if markdown.startswith("---\n"):
        return markdown
    m = re.search(r"(?m)^# (.+)$", markdown)
    if not m:
        return markdown
    plain = html.unescape(re.sub(r"\\(.)", r"\1", m.group(1)))
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


def source_link(rnd: Round) -> str:
    """The round's source as a link when it is an http(s) URL, else as text."""
    url = safe_url(rnd.source)
    return f"[{md(rnd.source_label)}]({url})" if url else f"{md(rnd.source)} ({md(rnd.source_label)})"


def bench_slug(benchmark: str) -> str:
    return re.sub(r"[^a-z0-9.]+", "-", benchmark.lower()).strip("-") or "benchmark"


def front_matter(r: Rendered, manifest: Manifest) -> dict[str, Any]:
    """Title, description, date and author for the theme and the feed; rounds and benchmarks."""
    meta: dict[str, Any] = {}
    for k in ("title", "description", "date", "author"):
        if k in r.article.meta:
            v = r.article.meta[k]
            meta[k] = v.isoformat() if hasattr(v, "isoformat") else attr(str(v))
    meta["rounds"] = [f"v{v}" for v in rounds_of(r)]
    meta["benchmarks"] = [attr(manifest.rules.display_name(b)) for b in benchmarks_of(r)]
    return meta


def byline(r: Rendered, manifest: Manifest, up: str = "") -> str:
    """Date · author · rounds · benchmarks, with links to the round and benchmark pages."""
    parts = [x for x in (day(r.article.meta.get("date")), md(str(r.article.meta.get("author", "")))) if x]
    # an article that was not built names the rounds it needs, which may have no page: no links then
    rounds = ", ".join(f"v{v}" if r.missing else f"[v{v}]({up}rounds/v{v}.md)" for v in rounds_of(r))
    benches = ", ".join(
        f"[{md(manifest.rules.display_name(b))}]({up}benchmarks/{bench_slug(b)}.md)" for b in benchmarks_of(r)
    )
    if rounds:
        parts.append(f"MLPerf® Inference {rounds}")
    if benches:
        parts.append(benches)
    return " · ".join(parts)


def article_page(r: Rendered, ctx: NoteContext) -> str:
    """The reader's page: front matter, the byline under the title, reader-grade footnotes."""
    meta = front_matter(r, ctx.manifest)
    head = yaml.safe_dump(meta, sort_keys=True, allow_unicode=True, default_flow_style=False)
    body = r.markdown if r.missing else reader_markdown(r, ctx)
    line = byline(r, ctx.manifest)
    if line and not r.missing:
        body = re.sub(
            r"(?m)^(# .+)$",
            lambda m: f'{m.group(1)}\n\n<p class="gi-byline" markdown="1">{line}</p>',
            body,
            count=1,
        )
    return f"---\n{head}---\n\n{body}"


def _by_date(rendered: list[Rendered]) -> list[Rendered]:
    return sorted(rendered, key=lambda r: (str(r.article.meta.get("date", "")), r.article.slug), reverse=True)


def article_item(r: Rendered, manifest: Manifest, up: str = "") -> list[str]:
    """One article in a list: linked title, byline, description."""
    note = " *(not built: official results needed)*" if r.missing else ""
    out = [f"### [{md(r.article.title)}]({up}{r.article.slug}.md){note}", ""]
    line = byline(r, manifest, up)
    if line:
        out += [f'<p class="gi-byline" markdown="1">{line}</p>', ""]
    desc = r.article.meta.get("description")
    if desc:
        out += [md(str(desc)), ""]
    return out


def index_page(rendered: list[Rendered], table: ResultsTable, manifest: Manifest, sample: bool) -> str:
    lines = ["# GPU Insights", "", "Per-GPU readings of official MLPerf® Inference results.", ""]
    if sample:
        lines += [
            '!!! note "Built from the embedded sample"',
            "    This site was built from the embedded sample, a few rows transcribed from a published "
            "article, not from official results files. Build with `--results DIR` for publication.",
            "",
        ]
    lines += ["## Articles", ""]
    for r in _by_date(rendered):
        lines += article_item(r, manifest)
    lines += ["## Rounds and benchmarks", ""]
    lines += [f"- [MLPerf® Inference v{v}](rounds/v{v}.md)" for v in reversed(table.rounds)]
    benches = sorted(
        {b for r in rendered for b in benchmarks_of(r)}, key=lambda b: manifest.rules.display_name(b).lower()
    )
    lines += [f"- [{md(manifest.rules.display_name(b))}](benchmarks/{bench_slug(b)}.md)" for b in benches]
    return "\n".join(lines) + "\n"


def round_page(version: str, rendered: list[Rendered], manifest: Manifest) -> str:
    lines = [f"# MLPerf® Inference v{version}", ""]
    rnd = manifest.rounds.get(version)
    if rnd is not None:
        lines += [
            f"Published {day(rnd.published)}; retrieved from {source_link(rnd)} on {day(rnd.retrieved)}.",
            "",
        ]
    lines += [f"[The results of v{version} as loaded](../data/v{version}.md).", "", "## Articles", ""]
    using = [r for r in _by_date(rendered) if version in rounds_of(r)]
    for r in using:
        lines += article_item(r, manifest, "../")
    if not using:
        lines += ["No article cites this round yet.", ""]
    return "\n".join(lines) + "\n"


def benchmark_page(benchmark: str, rendered: list[Rendered], manifest: Manifest) -> str:
    name = md(manifest.rules.display_name(benchmark))
    lines = [f"# {name}", "", f"Articles citing MLPerf® Inference {name} results.", "", "## Articles", ""]
    for r in _by_date(rendered):
        if benchmark in benchmarks_of(r):
            lines += article_item(r, manifest, "../")
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
            f"Published {day(rnd.published)}; retrieved from {source_link(rnd)} on {day(rnd.retrieved)}.",
            "",
        ]
    counts = df.groupby(["division", "suite", "benchmark", "scenario"]).size().reset_index(name="rows")
    lines += ["| Division | Suite | Benchmark | Scenario | Rows |", "|---|---|---|---|--:|"]
    for _, c in counts.iterrows():
        cells = [md(str(c[k])) for k in ("division", "suite", "benchmark", "scenario")]
        lines.append(f"| {' | '.join(cells)} | {c['rows']} |")
    lines += ["", *listing_markdown(table, version)]  # the names templates use
    return "\n".join(lines + ["", TRADEMARK]) + "\n"


def review_index(rendered: list[Rendered]) -> str:
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
        lines.append(f"- [{md(r.article.title)}]({r.article.slug}.md) · {report}")
    lines += ["- [Compliance rules](rules.md)", "- [Placeholder reference](placeholders.md)"]
    return "\n".join(lines) + "\n"


REVIEW_META = {"robots": "noindex", "search": {"exclude": True}}


def site_pages(
    rendered: list[Rendered], table: ResultsTable, manifest: Manifest, sample: bool, findings: list[Finding]
) -> dict[str, str]:
    """Every generated page (name → Markdown with front matter), except reports and extras."""
    ctx = NoteContext(manifest, _display(rendered, manifest), details_urls(table))
    pages = {"index.md": titled(index_page(rendered, table, manifest, sample))}
    for r in rendered:
        pages[f"{r.article.slug}.md"] = article_page(r, ctx)
        mine = [f for f in findings if f.path == str(r.article.path)]
        pages[f"review/{r.article.slug}.md"] = titled(review_page(r, mine), **REVIEW_META)
    pages["review/index.md"] = titled(review_index(rendered), **REVIEW_META)
    for v in table.rounds:
        pages[f"rounds/v{v}.md"] = titled(round_page(v, rendered, manifest))
        pages[f"data/v{v}.md"] = titled(data_page(table, v, manifest))
    for b in {b for r in rendered for b in benchmarks_of(r)}:
        pages[f"benchmarks/{bench_slug(b)}.md"] = titled(benchmark_page(b, rendered, manifest))
    return pages


def _display(rendered: list[Rendered], manifest: Manifest) -> dict[str, str]:
    return {b: manifest.rules.display_name(b) for r in rendered for b in benchmarks_of(r)}


def site_nav(
    rendered: list[Rendered], table: ResultsTable, manifest: Manifest, *, changes: bool
) -> list[dict[str, Any]]:
    """The reader's navigation: home, articles, rounds, benchmarks, data (the review view is not in it)."""
    nav: list[dict[str, Any]] = [{"Home": "index.md"}]
    nav.append({"Articles": [{attr(r.article.title): f"{r.article.slug}.md"} for r in _by_date(rendered)]})
    nav.append({"Rounds": [{f"v{v}": f"rounds/v{v}.md"} for v in reversed(table.rounds)]})
    benches = sorted(
        {b for r in rendered for b in benchmarks_of(r)}, key=lambda b: manifest.rules.display_name(b).lower()
    )
    if benches:
        nav.append(
            {
                "Benchmarks": [
                    {attr(manifest.rules.display_name(b)): f"benchmarks/{bench_slug(b)}.md"} for b in benches
                ]
            }
        )
    nav.append({"Data": [{f"v{v} as loaded": f"data/v{v}.md"} for v in reversed(table.rounds)]})
    if changes:
        nav.append({"Changes": "changes.md"})
    return nav


def fallback_spec(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec drawn into the static SVG: a fixed width where the page's chart follows its column."""
    out = dict(spec)
    if out.get("width") == "container":
        out["width"] = FALLBACK_WIDTH
    return out
