"""Render one article template into Markdown with figures, footnotes and provenance.

The template is Markdown with Jinja2 placeholders, rendered in the article sandbox
(:mod:`generator.article.sandbox`). Output is produced piece by piece, each piece
keeping its template position (:mod:`generator.article.sourcemap`); every printed
:class:`Figure` is recorded with its line and column. ``cite()`` markers, the
footnotes and the compliance paragraph are resolved after rendering, from what the
article actually cited. The output may not exceed ``Limits.output_bytes``.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import sys
from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING, Any

import jinja2

from generator.article.ahead import Compiled
from generator.article.escape import DataText, Trusted, md, md_attr
from generator.article.figures import MAGNITUDES, Figure, rows_text
from generator.article.footnotes import Group, GroupKey, collect_groups, footnotes_markdown, marker
from generator.article.frontmatter import Article, load_article
from generator.article.functions import Library
from generator.article.queries import Claim
from generator.article.sandbox import Limits, compile_template, make_environment, printable
from generator.article.sourcemap import EXPR, GENERATED, TEXT, Chunk, Origins, SourceMap
from generator.article.tables import Table, best_table, top_table
from generator.errors import ClaimFailed, GpuInsightsError, TemplateError
from generator.lazy import lazy

if TYPE_CHECKING:
    from generator.article import charts as charts_mod
else:  # imported on the first chart: charts import pandas, which a hand-written article never needs
    charts_mod = lazy("generator.article.charts")

CITE = "\x00CITE{n}\x00"
FOOTNOTES = "\x00FOOTNOTES\x00"
COMPLIANCE = "\x00COMPLIANCE\x00"
#: around the output of a placeholder that makes a block of its own (footnotes, compliance
#: paragraph, table, chart): blank lines are put there, whatever surrounds the placeholder
BLOCK_OPEN, BLOCK_CLOSE = "\x00BLOCK<\x00", "\x00BLOCK>\x00"
FOOTNOTES_HEADING = "## MLPerf® result footnotes and entry IDs"
ERRATA_HEADING = "## Errata"

__all__ = ["Article", "Limits", "Rendered", "Renderer", "load_article"]


@dataclass
class FigureUse:
    """One printed figure: where it was printed and what it printed."""

    line: int
    text: str
    figure: Figure
    table: str = ""
    out_line: int = 0  # line in the rendered Markdown
    col: int = 0  # column of its placeholder in the template
    offset: int = -1  # where its text starts in the rendered Markdown


@dataclass(frozen=True)
class Erratum:
    """A claim of the published text that the data contradicts, reported instead of printed silently."""

    line: int  # template line of the holds(...) call
    message: str  # the claim, as the text makes it
    published: str  # which published text made it (the erratum= argument)
    why: str  # the rows that contradict it
    number: int = 1  # its place in the article's Errata section

    @property
    def anchor(self) -> str:
        return f"erratum-{self.number}"

    def markdown(self) -> str:
        return (
            f'- <a id="{self.anchor}"></a>**Erratum ({md(self.published)}).** The text says that {md(self.message)}. '
            f"The official results contradict it: {md(self.why)}."
        )

    def mark(self) -> str:
        """What stands at the claim's sentence: a link to the erratum, so the sentence is never read as true."""
        return (
            f'<sup class="gi-erratum"><a href="#{self.anchor}" title="The official results contradict this '
            f'sentence: see the Errata">erratum</a></sup>'
        )


@dataclass
class ChartOut:
    name: str
    spec: dict
    caption: str = ""
    #: "Figure 2: <caption> [1][5]", as the downloaded SVG and PNG print it under the chart
    figure_caption: str = ""
    #: the plotted values as the page prints them (the chart's CSV)
    rows: tuple[dict[str, str], ...] = ()


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
    sourcemap: SourceMap = field(default_factory=lambda: SourceMap([]))
    errata: list[Erratum] = field(default_factory=list)

    @property
    def figures(self) -> list[Figure]:
        return [u.figure for u in self.uses]

    def position(self, offset: int) -> tuple[int, int]:
        """Template (line, column) of the rendered character at *offset*."""
        return self.sourcemap.position(offset, self.markdown)


class _State:
    def __init__(self) -> None:
        self.uses: list[FigureUse] = []
        self.cites: list[tuple[int, int, tuple[str, ...]]] = []
        self.charts: list[charts_mod.Chart] = []
        self.chart_cites: list[int] = []  # the cite() of each chart's caption
        self.footnotes_line = 0
        self.errata: list[Erratum] = []
        self.current = (0, 0)  # template (line, col) of the placeholder being printed
        #: what placeholders printed that the data accounts for (figures' text, data text, the
        #: generator's markup) and that went into a macro's or a ``{% set %}`` block's text, not
        #: straight to the output, with how many times
        self.covered: dict[str, int] = {}
        self.last = ""  # what the last placeholder printed that the data accounts for
        #: the last text printed with numbers nothing accounts for, and their spans in it
        self.untracked: tuple[str, list[tuple[int, int]]] | None = None


def _cited_uses(uses: list[FigureUse], blank: list[int], line: int) -> list[FigureUse]:
    """The figures a ``cite()`` on template *line* marks, of those printed since the previous
    marker: the ones in its own paragraph; when its paragraph prints none, the ones in the block
    right above it (a marker in the paragraph after a table or a list marks the table or list;
    it used to print nothing there)."""
    start = max((b for b in blank if b < line), default=0)
    own = [u for u in uses if u.line > start]
    if own:
        return own
    end = start
    while end - 1 in blank:  # the blank lines between the block and the paragraph
        end -= 1
    above = max((b for b in blank if b < end), default=0)
    return [u for u in uses if above < u.line < end]


class Renderer:
    """Renders articles against one results table."""

    def __init__(
        self,
        lib: Library,
        *,
        publisher: str = "GPU Insights",
        sample: bool = False,
        limits: Limits | None = None,
    ) -> None:
        self.lib = lib
        self.publisher = publisher
        self.sample = sample
        self.limits = limits or Limits()
        #: templates compiled ahead (:mod:`generator.article.ahead`), by article path
        self.compiled: dict[str, Compiled] = {}

    # ------------------------------------------------------------------ public
    def render(self, article: Article) -> Rendered:
        refuse_surrogates(article)
        missing = self.missing_data(article)
        if missing:
            return Rendered(article, missing_page(article, missing), missing=missing)
        state = _State()
        env = make_environment(lambda v: self._finalize(v, article, state))
        filename = str(article.path)
        ahead = self.compiled.get(filename)
        if ahead is not None and ahead.slug == article.slug and ahead.body == article.body:
            python, code = ahead.python, ahead.code
        else:
            try:
                python, code = compile_template(env, article.body, article.slug, filename)
            except jinja2.TemplateSyntaxError as exc:
                raise TemplateError(f"{filename}:{exc.lineno}: {exc.message}") from None
        template = env.template_class.from_code(env, code, env.make_globals(None))
        origins = Origins(python, code, template, article.body)
        namespace = template.root_render_func.__globals__  # the compiled template's module globals
        namespace["__gi_origins__"] = origins
        try:
            chunks = self._generate(template, origins, self._context(article, state), state)
        except TemplateError:
            raise
        except Exception as exc:  # a template mistake must never surface as a traceback
            line = _line(exc.__traceback__, template) or state.current[0]
            raise TemplateError(f"{filename}:{line}: {_describe(exc)}") from None
        return self._finish(article, chunks, state)

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

    # ------------------------------------------------------------------ producing output
    def _generate(
        self, template: Any, origins: Origins, context: dict[str, Any], state: _State
    ) -> list[Chunk]:
        """Run the template, keeping each piece of output with its template position."""
        gen = template.root_render_func(template.new_context(context))
        chunks: list[Chunk] = []
        size, limit = 0, self.limits.output_bytes
        while True:
            start = len(state.uses)
            state.untracked, state.last = None, ""
            try:
                piece = next(gen)
            except StopIteration:
                break
            if state.last and piece == state.last:  # printed straight to the output
                state.covered[piece] -= 1
                if not state.covered[piece]:
                    del state.covered[piece]
            line, col, kind = origins.of(gen, piece)
            if not piece.isascii() and (bad := SURROGATE.search(piece)):
                line = _escape_line(origins.source, bad.group(0)) or line
                raise TemplateError(
                    f"{template.filename}:{line}: the template prints a lone surrogate {_surrogate(bad.group(0))} "
                    "in a string), which is not a character and no page can hold; write the character itself"
                )
            size += len(piece)
            if size > limit:
                raise TemplateError(
                    f"{template.filename}:{line}: the article's output exceeds the limit of {limit:,} "
                    "characters (a loop printing too much?)"
                )
            if kind == EXPR and state.untracked is not None and state.untracked[0] == piece:
                chunks.extend(
                    split_untracked(Chunk(piece, line, col, kind), state.untracked[1], start, state.uses)
                )
            else:
                chunks.append(Chunk(piece, line, col, kind, (start, len(state.uses))))
        return chunks

    def _finalize(self, value: Any, article: Article, state: _State) -> Any:
        line, col = _placeholder_position(str(article.path))
        state.current = (line, col)
        if isinstance(value, Figure):
            text = str(value)
            state.uses.append(FigureUse(line, text, value, col=col))
            out: str = Trusted(md(text))
        elif isinstance(value, Table):
            out = self._place_table(value, state, line, col)
        elif isinstance(value, charts_mod.Chart):
            out = self._place_chart(article, value, state, line, col)
        elif isinstance(value, Claim):
            out = check_claim(value, value.statement, "", line, state.errata)
        else:
            out = printable(value)
            if not isinstance(value, Trusted | DataText):  # data text: results fields and front matter
                return account_numbers(out, state)
        state.covered[out] = state.covered.get(out, 0) + 1
        state.last = out
        return out

    def _place_table(self, value: Table, state: _State, line: int, col: int) -> str:
        header = value.markdown.splitlines()[0]
        for f in value.figures:
            state.uses.append(FigureUse(line, str(f), f, table=header, col=col))
        state.cites.append((len(state.uses), line, ()))
        mark = CITE.format(n=len(state.cites) - 1)
        lines = value.markdown.splitlines()
        if not lines[0].startswith("|"):  # a caption line: the markers go at its end
            lines[0] += mark
            return block("\n".join(lines))
        return block(value.markdown + "\n\n" + mark)

    def _place_chart(self, article: Article, ch: charts_mod.Chart, state: _State, line: int, col: int) -> str:
        state.charts.append(ch)
        n = len(state.charts)
        ch.name = f"{article.slug}-{n}"
        for f in ch.figures:
            state.uses.append(FigureUse(line, str(f), f, table=f"chart {ch.name}", col=col))
        state.cites.append((len(state.uses), line, ()))
        state.chart_cites.append(len(state.cites) - 1)
        mark = CITE.format(n=len(state.cites) - 1)
        return block(
            f'<div class="gi-chart"><div class="gi-vega" data-spec="charts/{ch.name}.vl.json">'
            f'<img src="charts/{ch.name}.svg" alt="{md_attr(ch.caption)}"></div></div>\n\n'
            f"*Figure {n}: {md(ch.caption)}*{mark}\n\n{charts_mod.downloads_html(ch.name)}"
        )

    def _context(self, article: Article, state: _State) -> dict[str, Any]:
        lib = self.lib
        ns: dict[str, Any] = dict(lib.namespace())
        filename = str(article.path)

        def cite(*rounds: str) -> str:
            line, _ = _placeholder_position(filename)
            state.cites.append((len(state.uses), line, tuple(str(r) for r in rounds)))
            return Trusted(CITE.format(n=len(state.cites) - 1))

        def footnotes() -> str:
            state.footnotes_line = _placeholder_position(filename)[0]
            return block(FOOTNOTES)

        def compliance() -> str:
            return block(COMPLIANCE)

        def table(round: str, columns: list, families: list, **kw: Any) -> Table:
            return best_table(lib, round, [tuple(c) for c in columns], families, **kw)

        def top_tbl(*args: Any, **kw: Any) -> Table:
            return top_table(lib, *args, **kw)

        def holds(condition: Any, message: str, erratum: str = "") -> str:
            return check_claim(condition, message, erratum, _placeholder_position(filename)[0], state.errata)

        def chart(kind: str, /, *args: Any, caption: str | None = None, **kw: Any) -> charts_mod.Chart:
            # positional-only: kind= is also a filter (the submitters' kind), handed to the chart
            return charts_mod.make_chart(lib, kind, args, kw, caption=caption)

        ns.update(
            cite=cite,
            footnotes=footnotes,
            compliance=compliance,
            best_table=table,
            top_table=top_tbl,
            holds=holds,
            chart=chart,
            meta=article.meta,
            sample=self.sample,
        )
        return ns

    # ------------------------------------------------------------------ after rendering
    def _markers(self, article: Article, state: _State, groups: dict[GroupKey, Group]) -> list[str]:
        """The footnote markers each ``cite()`` stands for."""
        blank = [i + 1 for i, ln in enumerate(article.body.splitlines()) if not ln.strip()]
        prev, out = 0, []
        for pos, line, rounds in state.cites:
            if rounds:
                nums = [g.number for key, g in groups.items() if key[0] in rounds]
            else:
                uses = _cited_uses(state.uses[prev:pos], blank, line)
                keys = {(r.round, r.division, r.suite) for u in uses for r in u.figure.entries}
                nums = [groups[key].number for key in keys if key in groups]
            prev = pos
            out.append(marker(nums))
        return out

    def _finish(self, article: Article, chunks: list[Chunk], state: _State) -> Rendered:
        groups = collect_groups(u.figure for u in state.uses)
        markers = self._markers(article, state, groups)
        display = {b: self.lib.manifest.rules.display_name(b) for g in groups.values() for b in g.benchmarks}
        notes = footnotes_markdown(
            groups, self.lib.manifest, display, self.publisher, loaded_files(self.lib.table)
        )
        placed = False
        for c in chunks:
            if CITE[:5] in c.text:
                for k, m in enumerate(markers):
                    c.text = c.text.replace(CITE.format(n=k), m)
            if FOOTNOTES in c.text:
                c.text, c.kind, placed = c.text.replace(FOOTNOTES, notes), GENERATED, True
            if COMPLIANCE in c.text:
                paragraph = self.compliance_paragraph(state.uses, article.date)
                c.text, c.kind = c.text.replace(COMPLIANCE, paragraph), GENERATED
        _separate_blocks(chunks)
        _strip_leading_newlines(chunks)
        _trim_trailing_newlines(chunks)
        end = chunks[-1].line if chunks else 0
        if notes and not placed:
            chunks.append(Chunk(f"\n\n{FOOTNOTES_HEADING}\n\n{notes}", end, 1, GENERATED))
        if state.errata:
            text = "\n".join(e.markdown() for e in state.errata)
            chunks.append(Chunk(f"\n\n{ERRATA_HEADING}\n\n{text}", end, 1, GENERATED))
        chunks.append(Chunk("\n\n" + provenance_appendix(state.uses) + "\n", end, 1, GENERATED))
        smap = SourceMap.from_chunks(chunks)
        markdown = "".join(c.text for c in chunks)
        _locate_uses(chunks, state.uses, markdown)
        _check_magnitudes(str(article.path), state.uses, markdown)
        _check_joined(str(article.path), state.uses, markdown)
        return Rendered(
            article,
            markdown,
            state.uses,
            groups,
            [
                ChartOut(
                    ch.name,
                    ch.spec,
                    ch.caption,
                    f"Figure {n}: {ch.caption} {charts_mod.plain_marker(markers[k])}".rstrip(),
                    ch.rows,
                )
                for n, (ch, k) in enumerate(zip(state.charts, state.chart_cites, strict=True), 1)
            ],
            cite_lines=[line for _, line, _ in state.cites],
            footnotes_line=state.footnotes_line,
            sourcemap=smap,
            errata=list(state.errata),
        )

    def compliance_paragraph(self, uses: list[FigureUse], dated: dt.date | None = None) -> str:
        """What the article's comparisons identify and when its results may be published. An
        article *dated* inside the two-week window says so, rather than that the window passed."""
        rows = [r for u in uses for r in u.figure.entries]
        if not rows:
            return ""
        divisions = sorted({r.division.capitalize() for r in rows})
        cats = [c for c in ("Available", "Preview", "RDI") if c.lower() in {r.category for r in rows}]
        latest = max({r.round for r in rows}, key=lambda v: tuple(int(p) for p in v.split(".")))
        rnd = self.lib.manifest.rounds.get(latest)
        text = (
            f"Comparisons in this article identify version, division ({', '.join(divisions)}), "
            f"category ({' or '.join(cats)}), scenario, and GPU count in the table or text, following "
            f"the MLPerf® Results Messaging Guidelines."
        )
        if rnd is None:
            return text
        d = rnd.published
        when = f"{d:%B} {d.day}, {d.year}"
        if dated is not None and d <= dated < d + dt.timedelta(days=14):
            return text + (
                f" This article, dated {dated:%B} {dated.day}, {dated.year}, appears within the two-week "
                f"window those guidelines set for non-submitters following the {when} publication: only a "
                "submitter may publish its own results then."
            )
        if (rnd.retrieved - rnd.published).days >= 14:
            return text + (
                f" Results were retrieved after the two-week window those guidelines set "
                f"for non-submitters following the {when} publication."
            )
        return text + (
            f" Results were retrieved within two weeks of the {when} publication; "
            f"non-submitters may not publish them before the window ends."
        )


def loaded_files(table: Any) -> dict[str, str]:
    """The name of the results file each round of *table* was read from (what notes cite)."""
    return {rep.version: rep.path.name for rep in getattr(table, "reports", [])}


def check_claim(condition: Any, message: str, erratum: str, line: int, errata: list[Erratum]) -> str:
    """``holds(condition, message)``: nothing when true; a build error naming the claim when false.

    With ``erratum="..."`` (the published text that made the claim) a false claim is
    marked where ``holds`` stands (a link to the erratum) and reported in the article's Errata
    section, with the rows that contradict it;
    a claim marked as an erratum that holds again is an error too, so the mark goes away.
    """
    ok = bool(condition)
    why = condition.why() if isinstance(condition, Claim) else ""
    if isinstance(condition, Claim) and not why:
        why = f"no row qualifies ({condition.statement})"
    if not ok and not erratum:
        raise ClaimFailed(f"claim no longer holds: {message}" + (f"; contradicted by {why}" if why else ""))
    if ok and erratum:
        raise ClaimFailed(f"claim marked as an erratum ({erratum}) holds now: {message}; remove erratum=")
    if not ok:
        errata.append(Erratum(line, message, erratum, why or "the condition is false", len(errata) + 1))
        return Trusted(errata[-1].mark())
    return Trusted("")


def block(text: str) -> str:
    """A placeholder's output that is a block of its own (:func:`_separate_blocks`)."""
    return Trusted(BLOCK_OPEN + text + BLOCK_CLOSE)


_BLOCK = re.compile(f"{re.escape(BLOCK_OPEN)}(.*?){re.escape(BLOCK_CLOSE)}", re.S)


def _separate_blocks(chunks: list[Chunk]) -> None:
    """A blank line before and after each block (:func:`block`) that has text beside it, however
    the template wrote it: ``{{ footnotes() }}`` and ``{{ compliance() }}`` on consecutive lines
    made the compliance paragraph part of the last footnote, and the reader's page lost it. An
    empty block (no footnotes to print) leaves nothing."""
    before = ""  # the output so far, up to its last non-blank character (and what follows it)
    for i, c in enumerate(chunks):
        if BLOCK_OPEN not in c.text:
            before = _tail(before + c.text)
            continue
        out: list[str] = []
        pos = 0
        for m in _BLOCK.finditer(c.text):
            out.append(c.text[pos : m.start()])
            pos = m.end()
            if not m.group(1).strip():
                continue
            so_far = _tail(before + "".join(out))
            if so_far.strip():
                out.append("\n" * max(0, 2 - _newlines(so_far.rstrip(" \t")[::-1])))
            out.append(m.group(1))
            after = _following(c.text[pos:], chunks[i + 1 :])
            if after.strip():
                out.append("\n" * max(0, 2 - _newlines(after)))
        out.append(c.text[pos:])
        c.text = "".join(out)
        before = _tail(before + c.text)


def _tail(text: str) -> str:
    """What decides the blank lines a block needs before it: the last line with text and after."""
    end = len(text.rstrip())
    return text[max(0, text.rfind("\n", 0, end)) :] if end else text[-4:]


def _newlines(text: str) -> int:
    return len(text) - len(text.lstrip("\n"))


def _following(rest: str, chunks: list[Chunk]) -> str:
    """The output after a block, sentinels left out, as far as its first character that is not a line break."""
    text = _BLOCK_MARKS.sub("", rest)
    for c in chunks:
        if text.strip("\n"):
            break
        text += _BLOCK_MARKS.sub("", c.text)
    return text


_BLOCK_MARKS = re.compile(f"{re.escape(BLOCK_OPEN)}|{re.escape(BLOCK_CLOSE)}")


def _strip_leading_newlines(chunks: list[Chunk]) -> None:
    """The blank lines left where the front matter was are not part of the page."""
    for c in chunks:
        stripped = c.text.lstrip("\n")
        if c.kind == TEXT:
            c.line += len(c.text) - len(stripped)
            if len(c.text) != len(stripped):
                c.col = 1
        c.text = stripped
        if c.text:
            return


def _trim_trailing_newlines(chunks: list[Chunk]) -> None:
    for c in reversed(chunks):
        c.text = c.text.rstrip("\n")
        if c.text:
            return


def _locate_uses(chunks: list[Chunk], uses: list[FigureUse], markdown: str) -> None:
    """Record where each printed figure's text starts in the rendered Markdown."""
    pos = 0
    for c in chunks:
        a, b = c.uses
        cursor = 0
        for u in uses[a:b]:
            at = _find_printed(c.text, md(u.text), cursor)
            if at == -1:
                at = cursor
            else:
                cursor = at + len(md(u.text))
            u.offset = pos + at
            u.out_line = markdown.count("\n", 0, u.offset) + 1
        pos += len(c.text)


def _find_printed(text: str, printed: str, start: int) -> int:
    """Where *printed* stands in *text* from *start* as a whole figure: a table's "8" GPUs, not the
    8 inside the system name "G894-AD3-AAX7" a cell before it; the first occurrence otherwise."""
    first = at = text.find(printed, start)
    if at == -1 or not printed[:1].isdigit():
        return at
    while at != -1:  # a scan, not a pattern compiled per figure (a tenth of a rendering's time)
        end = at + len(printed)
        decimal = text[end : end + 1] in (".", ",") and text[end + 1 : end + 2].isdigit()
        if not (decimal or _wordish(text[at - 1 : at], ".,") or _wordish(text[end : end + 1], "")):
            return at
        at = text.find(printed, at + 1)
    return first


def _wordish(char: str, also: str) -> bool:
    """Whether *char* (one character, or none) is a word character as a pattern's ``\\w`` is (a
    letter or digit of any script, or "_"), or one of *also*."""
    return bool(char) and (char.isalnum() or char == "_" or char in also)


#: a lone surrogate: no character, and no UTF-8 file can hold it (YAML's "\ud800", a Jinja string's)
SURROGATE = re.compile("[\ud800-\udfff]")


def _surrogate(char: str) -> str:
    return f'(U+{ord(char):04X}, from an escape such as "\\u{ord(char):04x}"'


def _escape_line(source: str, char: str) -> int:
    """The line of the template's escape that made *char* (``\\ud800``, ``\\U0000d800``), or 0."""
    m = re.search(rf"\\(?:u|U0000){ord(char):04x}", source, re.I)
    return source.count("\n", 0, m.start()) + 1 if m else 0


def refuse_surrogates(article: Article) -> None:
    """A front-matter text holding a lone surrogate is refused with its file and line: the page,
    its title in the navigation and the feed could not be written (a UnicodeEncodeError)."""
    for key, value in article.meta.items():
        todo = [value]
        while todo:
            v = todo.pop()
            if isinstance(v, dict):
                todo.extend(v.values())
            elif isinstance(v, list | tuple):
                todo.extend(v)
            elif isinstance(v, str) and not v.isascii() and (bad := SURROGATE.search(v)):
                raise TemplateError(
                    f"{article.path}:{article.meta_lines.get(key, 1)}: front matter {key}: a lone surrogate "
                    f"{_surrogate(bad.group(0))}), which is not a character and no page can hold; write the "
                    "character itself"
                )


#: a number as the checker reads one: digits, with thousands separators and decimals
NUMBER_RUN = re.compile(r"\d(?:[\d,.]*\d)?")


def account_numbers(text: str, state: _State) -> str:
    """Text a template built (``|join``, ``format``, a macro's output, a literal string): the numbers
    in it that no figure, data text or generated markup printed are recorded, and the piece of
    output carrying them is marked as typed text, so the checker reports them as typed by hand
    (MLP019) however they were computed."""
    runs = list(NUMBER_RUN.finditer(text))
    if not runs:
        return text
    covered = bytearray(len(text))
    for piece in state.covered:
        at = text.find(piece) if piece and any(c.isdigit() for c in piece) else -1
        while at != -1:
            covered[at : at + len(piece)] = b"\x01" * len(piece)
            at = text.find(piece, at + len(piece))
    spans = [(m.start(), m.end()) for m in runs if not any(covered[m.start() : m.end()])]
    if spans:
        state.untracked = (text, spans)
    return text


def split_untracked(
    chunk: Chunk, spans: list[tuple[int, int]], start: int, uses: list[FigureUse]
) -> list[Chunk]:
    """*chunk* cut where its untracked numbers are: those pieces are typed text (TEXT) for the
    checker, the rest stays a placeholder's output, each piece with the figures printed in it."""
    where, cursor = [], 0
    for u in uses[start:]:
        at = chunk.text.find(md(u.text), cursor)
        at = cursor if at == -1 else at
        cursor = at + (len(md(u.text)) if chunk.text.startswith(md(u.text), at) else 0)
        where.append(at)
    bounds = sorted({0, len(chunk.text), *(b for span in spans for b in span)})
    typed = {a for a, _ in spans}
    out, first = [], start
    for a, b in zip(bounds, bounds[1:], strict=False):
        last = first + sum(1 for w in where[first - start :] if w < b)
        kind = TEXT if a in typed else chunk.kind
        out.append(Chunk(chunk.text[a:b], chunk.line, chunk.col, kind, (first, last)))
        first = last
    return out


def _check_joined(filename: str, uses: list[FigureUse], markdown: str) -> None:
    """A figure's text is not run together with other digits: ``{{ x }}{{ "3" }}`` printed "10,0003",
    one number the figure's citation would cover and no figure gave."""
    for u in uses:
        text = md(u.text)
        if u.offset < 0 or markdown[u.offset : u.offset + len(text)] != text or not text[-1:].isdigit():
            continue
        end = u.offset + len(text)
        after = re.match(r"[,.]?\d+", markdown[end : end + 40])
        before = (
            re.search(r"\d+[,.]?$", markdown[max(0, u.offset - 40) : u.offset]) if text[0].isdigit() else None
        )
        if after or before:
            joined = (before.group(0) if before else "") + text + (after.group(0) if after else "")
            raise TemplateError(
                f"{filename}:{u.line}: figure {u.text} is printed run together with other digits "
                f"({joined}): the text would state a number no figure gave"
            )


def _check_magnitudes(filename: str, uses: list[FigureUse], markdown: str) -> None:
    """A figure printed scaled (``x.fmt(scale=1e6)``) is followed by its magnitude word (or has it as
    its unit): "5.75 million" states the figure's value, a bare "5.75 tokens/s" another number."""
    for u in uses:
        words = MAGNITUDES.get(u.figure.scale)
        text = md(u.text)
        if words is None or u.offset < 0 or markdown[u.offset : u.offset + len(text)] != text:
            continue  # not scaled, or printed inside generated markup (a table cell, a chart)
        end = u.offset + len(text)
        after = f" {u.figure.unit}" if u.figure.unit else markdown[end : end + 20]
        if not re.match(rf"\s?(?:{'|'.join(words)})\b", after):
            raise TemplateError(
                f"{filename}:{u.line}: figure {u.text} is printed scaled by {u.figure.scale:,.0f} and not "
                f"followed by {words[0]!r}: the text would state another number than the figure's "
                f"(write {{{{ x.fmt(scale=1e{round(math.log10(u.figure.scale))}) }}}} {words[0]}, "
                f'or unit="{words[0]}")'
            )


def missing_page(article: Article, why: str) -> str:
    return f'# {md(article.title)}\n\n!!! warning "Official results needed"\n    This article was not built: {why}.\n'


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
        ids = rows_text(u.figure.entries, lambda r: f"{r.result_id} {r.benchmark} {r.scenario}") or "—"
        if u.figure.stated_by:
            ids = f"stated by {u.figure.stated_by}"
        key = (u.line, u.text, u.figure.formula)
        if key in seen:
            continue
        seen.add(key)
        lines.append(f"| {u.line} | {md(u.text)} | {md(u.figure.formula)} | {md(ids)} |")
    lines += ["", "</details>"]
    return "\n".join(lines)


def _placeholder_position(filename: str) -> tuple[int, int]:
    """Template (line, column) of the placeholder whose code is running now."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename == filename:
            origins = frame.f_globals.get("__gi_origins__")
            if origins is None:
                return 0, 0
            return origins.template_line(frame.f_lineno), origins.expr_cols.get(frame.f_lineno, 1)
        frame = frame.f_back  # type: ignore[assignment]
    return 0, 0


def _describe(exc: BaseException) -> str:
    if isinstance(exc, GpuInsightsError):
        return exc.message
    if isinstance(exc, jinja2.UndefinedError | jinja2.exceptions.SecurityError):
        return str(exc)
    if isinstance(exc, MemoryError):
        return "the article ran out of memory"
    if isinstance(exc, RecursionError):
        return "recursion too deep (a macro calling itself?)"
    return f"{type(exc).__name__}: {exc}"


def _line(tb: TracebackType | None, template: Any) -> int:
    """The template line of an error: the deepest frame that runs the template's code."""
    line = 0
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == template.filename:
            line = template.get_corresponding_lineno(tb.tb_lineno)
        tb = tb.tb_next
    return line
