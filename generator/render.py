"""Render one article template into Markdown with figures, footnotes and provenance.

The template is Markdown with Jinja2 placeholders, rendered in a sandboxed
environment with ``StrictUndefined``. Every printed :class:`Figure` is recorded
with its template line; ``cite()`` markers, the footnotes and the compliance
paragraph are resolved after rendering, from what the article actually cited.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

import jinja2
import yaml
from jinja2.sandbox import SandboxedEnvironment

from . import charts as charts_mod
from .errors import GpuInsightsError, TemplateError
from .figures import Figure
from .footnotes import Group, GroupKey, collect_groups, footnotes_markdown, marker
from .functions import Library
from .tables import Table, best_table

CITE = "\x00CITE{n}\x00"
MARK_OPEN, MARK_MID = "\x01", "\x02"  # where a placeholder's figures start in the output
FOOTNOTES = "\x00FOOTNOTES\x00"
COMPLIANCE = "\x00COMPLIANCE\x00"
FOOTNOTES_HEADING = "## MLPerf® result footnotes and entry IDs"


@dataclass
class Article:
    """An article template: ``content/<slug>.md`` with YAML front matter."""

    path: Path
    slug: str
    meta: dict[str, Any]
    body: str  # the source with front matter blanked out, so line numbers match the file

    @property
    def title(self) -> str:
        return str(self.meta.get("title", self.slug))

    @property
    def rounds(self) -> list[str]:
        return [str(r) for r in self.meta.get("rounds", [])]


def load_article(path: Path) -> Article:
    text = path.read_text(encoding="utf-8")
    meta: dict[str, Any] = {}
    body = text
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        if end == -1:
            raise TemplateError(f"{path}:1: front matter opened with '---' is never closed")
        try:
            meta = yaml.safe_load(text[4:end]) or {}
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            line = mark.line + 2 if mark else 1
            raise TemplateError(f"{path}:{line}: invalid front matter: {exc}") from None
        if not isinstance(meta, dict):
            raise TemplateError(f"{path}:1: front matter must be a mapping of keys to values")
        n = text[: end + 5].count("\n")
        body = "\n" * n + text[end + 5 :]
    return Article(path, path.stem, meta, body)


@dataclass
class FigureUse:
    """One printed figure: where it was printed and what it printed."""

    line: int
    text: str
    figure: Figure
    table: str = ""
    out_line: int = 0  # line in the rendered Markdown


@dataclass
class ChartOut:
    name: str
    spec: dict
    svg: str


@dataclass
class Rendered:
    article: Article
    markdown: str
    uses: list[FigureUse] = field(default_factory=list)
    groups: dict[GroupKey, Group] = field(default_factory=dict)
    charts: list[ChartOut] = field(default_factory=list)
    missing: str = ""  # why the article could not be rendered with the data at hand
    cite_lines: list[int] = field(default_factory=list)  # template line of each marker
    footnotes_line: int = 0  # template line of {{ footnotes() }} (0: appended at the end)

    @property
    def figures(self) -> list[Figure]:
        return [u.figure for u in self.uses]


class _State:
    def __init__(self) -> None:
        self.uses: list[FigureUse] = []
        self.cites: list[tuple[int, int, tuple[str, ...]]] = []
        self.charts: list[charts_mod.Chart] = []
        self.footnotes_placed = False
        self.footnotes_line = 0
        self.spans: list[tuple[int, int]] = []  # uses printed by one placeholder


class Renderer:
    """Renders articles against one results table."""

    def __init__(self, lib: Library, *, publisher: str = "GPU Insights", sample: bool = False) -> None:
        self.lib = lib
        self.publisher = publisher
        self.sample = sample
        self._template: jinja2.Template | None = None

    # ------------------------------------------------------------------ public
    def render(self, article: Article) -> Rendered:
        missing = self.missing_data(article)
        if missing:
            return Rendered(article, missing_page(article, missing), missing=missing)
        state = _State()
        env = self._environment(article, state)
        filename = str(article.path)
        try:
            code = env.compile(article.body, name=article.slug, filename=filename)
            template = env.template_class.from_code(env, code, env.make_globals(None))
            self._template = template
            raw = template.render(**self._context(article, state))
        except jinja2.TemplateSyntaxError as exc:
            raise TemplateError(f"{filename}:{exc.lineno}: {exc.message}") from None
        except (jinja2.UndefinedError, jinja2.exceptions.SecurityError) as exc:
            raise TemplateError(
                f"{filename}:{_template_line(exc.__traceback__, filename, self._template)}: {exc}"
            ) from None
        except GpuInsightsError as exc:
            line = _template_line(exc.__traceback__, filename, self._template)
            raise TemplateError(f"{filename}:{line}: {exc.message}") from None
        except (TypeError, ValueError, ZeroDivisionError, AttributeError) as exc:
            line = _template_line(exc.__traceback__, filename, self._template)
            raise TemplateError(f"{filename}:{line}: {type(exc).__name__}: {exc}") from None
        return self._finish(article, raw, state)

    def missing_data(self, article: Article) -> str:
        loaded = set(self.lib.table.rounds)
        need = [r for r in article.rounds if r not in loaded]
        if self.sample and not article.meta.get("sample", False):
            return (
                f"this article needs the official results of round(s) "
                f"{', '.join('v' + r for r in article.rounds) or '(see front matter)'}, "
                f"and the build used the embedded sample; build with "
                f"`gpu-insights build --results DIR` or download each round with "
                f"`gpu-insights fetch ROUND` first"
            )
        if need:
            return (
                f"round(s) {', '.join('v' + r for r in need)} not loaded; build with "
                f"`gpu-insights build --results DIR` where DIR holds "
                f"{', '.join('v' + r + '/' for r in need)}, or run "
                + " and ".join(f"`gpu-insights fetch {r}`" for r in need)
            )
        return ""

    # ------------------------------------------------------------------ jinja
    def _environment(self, article: Article, state: _State) -> SandboxedEnvironment:
        filename = str(article.path)

        def finalize(value: Any) -> Any:
            start = len(state.uses)
            out = _finalize(value)
            if len(state.uses) > start:  # mark where these figures landed in the output
                state.spans.append((start, len(state.uses)))
                return f"{MARK_OPEN}{len(state.spans) - 1}{MARK_MID}{out}"
            return out

        def _finalize(value: Any) -> Any:
            line = _current_line(filename, self._template)
            if isinstance(value, Figure):
                text = str(value)
                state.uses.append(FigureUse(line, text, value))
                return text
            if isinstance(value, Table):
                for f in value.figures:
                    state.uses.append(FigureUse(line, str(f), f, table=value.markdown.splitlines()[0]))
                state.cites.append((len(state.uses), line, ()))
                mark = CITE.format(n=len(state.cites) - 1)
                lines = value.markdown.splitlines()
                if not lines[0].startswith("|"):  # a caption line: the markers go at its end
                    lines[0] += mark
                    return "\n".join(lines)
                return value.markdown + "\n\n" + mark
            if isinstance(value, charts_mod.Chart):
                return self._place_chart(article, value, state, line)
            return value

        env = SandboxedEnvironment(
            undefined=jinja2.StrictUndefined,
            finalize=finalize,
            autoescape=False,
            keep_trailing_newline=True,
        )
        return env

    def _context(self, article: Article, state: _State) -> dict[str, Any]:
        lib = self.lib
        ns: dict[str, Any] = dict(lib.namespace())

        def cite(*rounds: str) -> str:
            line = _current_line(str(article.path), self._template)
            state.cites.append((len(state.uses), line, tuple(str(r) for r in rounds)))
            return CITE.format(n=len(state.cites) - 1)

        def footnotes() -> str:
            state.footnotes_placed = True
            state.footnotes_line = _current_line(str(article.path), self._template)
            return FOOTNOTES

        def compliance() -> str:
            return COMPLIANCE

        def table(round: str, columns: list, families: list, **kw: Any) -> Table:
            return best_table(lib, round, [tuple(c) for c in columns], families, **kw)

        def chart(kind: str, *args: Any, **kw: Any) -> charts_mod.Chart:
            makers: dict[str, Callable[..., charts_mod.Chart]] = {
                "per_gpu_by_family": charts_mod.per_gpu_by_family,
                "cross_round": charts_mod.cross_round,
                "available_vs_preview": charts_mod.available_vs_preview,
            }
            if kind not in makers:
                raise TemplateError(f"unknown chart kind {kind!r} (known: {', '.join(sorted(makers))})")
            return makers[kind](lib, *args, **kw)

        ns.update(
            cite=cite,
            footnotes=footnotes,
            compliance=compliance,
            best_table=table,
            chart=chart,
            meta=article.meta,
            sample=self.sample,
        )
        return ns

    def _place_chart(self, article: Article, ch: charts_mod.Chart, state: _State, line: int) -> str:
        state.charts.append(ch)
        n = len(state.charts)
        ch.name = f"{article.slug}-{n}"
        for f in ch.figures:
            state.uses.append(FigureUse(line, str(f), f, table=f"chart {ch.name}"))
        state.cites.append((len(state.uses), line, ()))
        mark = CITE.format(n=len(state.cites) - 1)
        return (
            f'<div class="gi-chart"><div class="gi-vega" data-spec="charts/{ch.name}.vl.json">'
            f'<img src="charts/{ch.name}.svg" alt="{ch.caption}"></div></div>\n\n'
            f"*Figure {n}: {ch.caption}*{mark}"
        )

    # ------------------------------------------------------------------ after rendering
    def _finish(self, article: Article, raw: str, state: _State) -> Rendered:
        groups = collect_groups(u.figure for u in state.uses)
        text = raw.lstrip("\n")
        blank = [i + 1 for i, ln in enumerate(article.body.splitlines()) if not ln.strip()]
        prev = 0
        for k, (pos, line, rounds) in enumerate(state.cites):
            if rounds:
                nums = [g.number for key, g in groups.items() if key[0] in rounds]
            else:
                # the figures printed since the previous marker, within this marker's paragraph
                para_start = max((b for b in blank if b < line), default=0)
                keys = {
                    (r.round, r.division, r.suite)
                    for u in state.uses[prev:pos]
                    if u.line > para_start
                    for r in u.figure.entries
                }
                nums = [groups[key].number for key in keys if key in groups]
            prev = pos
            text = text.replace(CITE.format(n=k), marker(nums))
        display = {b: self.lib.manifest.rules.display_name(b) for g in groups.values() for b in g.benchmarks}
        notes = footnotes_markdown(groups, self.lib.manifest, display, self.publisher)
        if FOOTNOTES in text:
            text = text.replace(FOOTNOTES, notes)
        elif notes:
            text = text.rstrip("\n") + f"\n\n{FOOTNOTES_HEADING}\n\n{notes}\n"
        text = text.replace(COMPLIANCE, self.compliance_paragraph(state.uses))
        text = _locate(text, state)
        text = text.rstrip("\n") + "\n\n" + provenance_appendix(state.uses) + "\n"
        outs = []
        for ch in state.charts:
            outs.append(ChartOut(ch.name, ch.spec, charts_mod.to_svg(ch.spec)))
        return Rendered(
            article,
            text,
            state.uses,
            groups,
            outs,
            cite_lines=[line for _, line, _ in state.cites],
            footnotes_line=state.footnotes_line,
        )

    def compliance_paragraph(self, uses: list[FigureUse]) -> str:
        rows = [r for u in uses for r in u.figure.entries]
        if not rows:
            return ""
        divisions = sorted({r.division.capitalize() for r in rows})
        cats = [c for c in ("Available", "Preview", "RDI") if c.lower() in {r.category for r in rows}]
        latest = max({r.round for r in rows}, key=lambda v: tuple(int(p) for p in v.split(".")))
        rnd = self.lib.manifest.rounds.get(latest)
        cat_text = " or ".join(cats)
        text = (
            f"Comparisons in this article identify version, division ({', '.join(divisions)}), "
            f"category ({cat_text}), scenario, and GPU count in the table or text, following "
            f"the MLPerf® Results Messaging Guidelines."
        )
        if rnd is not None:
            d = rnd.published
            window = (rnd.retrieved - rnd.published).days >= 14
            when = f"{d:%B} {d.day}, {d.year}"
            if window:
                text += (
                    f" Results were retrieved after the two-week window those guidelines set "
                    f"for non-submitters following the {when} publication."
                )
            else:
                text += (
                    f" Results were retrieved within two weeks of the {when} publication; "
                    f"non-submitters may not publish them before the window ends."
                )
        return text


def _locate(text: str, state: _State) -> str:
    """Record the rendered line of every printed figure and remove the position marks."""
    out, line, i = [], 1, 0
    while True:
        j = text.find(MARK_OPEN, i)
        if j == -1:
            out.append(text[i:])
            break
        chunk = text[i:j]
        out.append(chunk)
        line += chunk.count("\n")
        k = text.index(MARK_MID, j)
        start, end = state.spans[int(text[j + 1 : k])]
        for u in state.uses[start:end]:
            u.out_line = line
        i = k + 1
    return "".join(out)


def missing_page(article: Article, why: str) -> str:
    return (
        f"# {article.title}\n\n"
        f'!!! warning "Official results needed"\n'
        f"    This article was not built: {why}.\n"
    )


def provenance_appendix(uses: list[FigureUse]) -> str:
    if not uses:
        return ""
    lines = [
        '<details class="gi-provenance" markdown="1">',
        "<summary>Provenance of every figure in this article</summary>",
        "",
        "| Line | Figure | Formula | Entries |",
        "|--:|--:|---|---|",
    ]
    seen = set()
    for u in uses:
        ids = (
            ", ".join(sorted({f"{r.result_id} {r.benchmark} {r.scenario}" for r in u.figure.entries})) or "—"
        )
        if u.figure.stated_by:
            ids = f"stated by {u.figure.stated_by}"
        key = (u.line, u.text, u.figure.formula)
        if key in seen:
            continue
        seen.add(key)
        formula = u.figure.formula.replace("|", "\\|")
        lines.append(f"| {u.line} | {u.text} | {formula} | {ids} |")
    lines += ["", "</details>"]
    return "\n".join(lines)


def _current_line(filename: str, template: jinja2.Template | None) -> int:
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename == filename and template is not None:
            return template.get_corresponding_lineno(frame.f_lineno)
        frame = frame.f_back  # type: ignore[assignment]
    return 0


def _template_line(tb: TracebackType | None, filename: str, template: jinja2.Template | None) -> int:
    """The template line of an error: Jinja has already rewritten the traceback so that the
    template's frames carry template line numbers."""
    line = 0
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line
