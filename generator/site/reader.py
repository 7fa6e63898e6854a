"""The reader's page of a rendered article: footnotes, tables and entry IDs as readers expect.

The rendered Markdown (what the checker reads, what ``sources/`` keeps) is left as it
is; the site's page is made from it here:

* the generated markers ``[^\\[1\\]](#mlperf-fn-1)`` become Markdown footnote references
  ``[^1]`` (superscript, back-link, Material's hover preview), the markers of one citation
  separated by a superscript comma (``¹,³``, never ``¹³``), and the generated notes
  become footnote definitions, built again from the article's citation groups with every
  entry ID linked to its official ``Details`` page, grouped by benchmark and scenario,
  and the source as a link; the notes keep every statement the guidelines ask for;
* cells of the best-per-family tables put the GPU count, entry and median in secondary
  type; every entry ID in prose, tables and notes links to its official result and never breaks;
* a heading with nothing under it is dropped;
* the provenance appendix loses its template-line column (template lines are for the review view).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from generator.article.escape import md, md_attr, safe_url
from generator.article.footnotes import (
    NOT_VERIFIED,
    SUITE_NAMES,
    TRADEMARK,
    VERIFIED,
    Group,
    GroupKey,
    _derived_sentence,
    inferred_sentence,
    scenario_key,
    sort_keys,
    source_label,
)
from generator.article.render import Rendered
from generator.data.manifest import Manifest
from generator.data.results import version_key
from generator.data.row import Row
from generator.data.table import ResultsTable

#: where Python-Markdown's footnotes extension places the notes (its PLACE_MARKER default)
PLACE_MARKER = "///Footnotes Go Here///"
GENERATED_MARKER = re.compile(r"\[\^?\\\[(\d+)\\\]\]\(#mlperf-fn-(\d+)\)")
#: the markers of one citation, one after the other
MARKER_RUN = re.compile(rf"(?:{GENERATED_MARKER.pattern})+")
#: between two footnote references of one citation: a superscript comma
FN_SEP = '<sup class="gi-fn-sep">,</sup>'
NOTE_LINE = re.compile(r'^\d+\. <a id="mlperf-fn-(\d+)"></a>.*$')
ENTRY_ID = re.compile(r"(?<![\w.\-/#])(\d+\.\d+-\d{4})(?![\w\-])")
#: code spans, HTML tags and Markdown links: entry IDs inside them are not made links
_OPAQUE = re.compile(r"(`[^`\n]*`|<[^<>\n]*>|\[[^\[\]\n]*\]\([^)\s]*\)|\]\([^)\s]*\))")
#: a best-per-family table cell: "11,276 (8 GPUs, 6.1-0021)" then "<br>median 11,254 of 2"
TABLE_CELL = re.compile(
    r"^(?P<value>[^()<|]+?) \((?P<detail>\d+ GPUs?, [^()<|]+)\)(?:<br>(?P<median>median [^<|]+))?$"
)
HEADING = re.compile(r"^(#{1,6}) \S")
PUBLISHER = "GPU Insights"

#: per citation group and (benchmark, scenario), the rows cited: (entry ID, "") or, for a row
#: without an ID, ("", what names it)
Cited = dict[GroupKey, dict[tuple[str, str], set[tuple[str, str]]]]


@dataclass(frozen=True)
class NoteContext:
    """What the reader's notes need besides the article: round sources, names, official links."""

    manifest: Manifest
    display: dict[str, str]
    details: dict[tuple[str, str], str]
    publisher: str = PUBLISHER
    #: the results file each round was read from (notes name it)
    loaded: dict[str, str] = field(default_factory=dict)


#: characters an official URL keeps as they are; the rest (a space in 6.1-0108's submitter
#: folder, quotes) is percent-encoded
URL_SAFE = ":/?#[]@!$&()*+,;=%~"


def official_url(text: str) -> str | None:
    """An official result's http(s) URL as a link can hold it: percent-encoded where it holds a
    space or a quote (entry 6.1-0108's Details URL names the folder ``closed/Naeem Khoshnevis``
    and got no link); None for anything but http(s)."""
    url = safe_url(text)
    if url is not None:
        return url
    stripped = text.strip()
    if not re.match(r"https?://", stripped, flags=re.I):
        return None
    return safe_url(quote(stripped, safe=URL_SAFE))


def details_urls(table: ResultsTable) -> dict[tuple[str, str], str]:
    """``(round, entry) -> Details URL`` for every row whose URL is a plain http(s) link."""
    if "details" not in table.df.columns:
        return {}
    out: dict[tuple[str, str], str] = {}
    checked: dict[str, str | None] = {}  # a system's URL repeats on each of its rows
    df = table.df
    for rnd, rid, url in zip(
        df["round"].tolist(), df["result_id"].tolist(), df["details"].tolist(), strict=True
    ):
        if not url or not rid:
            continue
        text = str(url)
        if text not in checked:
            checked[text] = official_url(text)
        if safe := checked[text]:
            out[(str(rnd), str(rid))] = safe
    return out


def cited_entries(r: Rendered) -> Cited:
    """Per citation group, the entry IDs cited for each (benchmark, scenario)."""
    out: Cited = {}
    for u in r.uses:
        for row in u.figure.entries:
            key = (row.round, row.division, row.suite)
            out.setdefault(key, {}).setdefault((row.benchmark, row.scenario), set()).add(_cited(row))
    return out


def _cited(row: Row) -> tuple[str, str]:
    if row.result_id:
        return (row.result_id, "")
    return ("", f"{row.submitter} {row.system}, {Path(row.source_file).name} {row.source_row}, no entry ID")


def entry_link(rnd: str, rid: str, details: dict[tuple[str, str], str]) -> str:
    """An entry ID as a link to its official result (when the results give one), unbreakable."""
    url = details.get((rnd, rid))
    text = f'<span class="gi-id">{md(rid)}</span>'
    return (
        f'<a class="gi-entry" href="{md_attr(url)}" title="Official result {md_attr(rid)}">{text}</a>'
        if url
        else text
    )


def entries_by_benchmark(
    g: Group, cited: dict[tuple[str, str], set[tuple[str, str]]], ctx: NoteContext
) -> str:
    """ "DeepSeek-R1 Server: 6.1-0021, 6.1-0052; Offline: 6.1-0003. gpt-oss-120b Server: …" with links;
    a row without an entry ID named by its submitter, system and place in its file."""
    parts = []
    for b in sorted(g.benchmarks, key=lambda b: (ctx.display.get(b) or b).lower()):
        scen = []
        for s in sorted(g.benchmarks[b], key=scenario_key):
            rows = cited.get((b, s), set())
            ids = sorted(i for i, _ in rows if i)
            said = (
                [
                    f"{'entry' if len(ids) == 1 else 'entries'} {', '.join(entry_link(g.key[0], i, ctx.details) for i in ids)}"
                ]
                if ids
                else []
            )
            said += [md(label) for label in sorted(label for i, label in rows if not i)]
            scen.append(f"{s} ({'; '.join(said)})")
        parts.append(f"**{md(ctx.display.get(b, b))}** {'; '.join(scen)}.")
    return "<br>" + "<br>".join(parts)


def reader_note(g: Group, cited: dict[tuple[str, str], set[tuple[str, str]]], ctx: NoteContext) -> str:
    """One footnote: what :func:`generator.article.footnotes.note_text` states, with links."""
    round_, division, suite = g.key
    rnd = ctx.manifest.rounds.get(round_)
    suite_name = SUITE_NAMES.get(suite, suite.capitalize())  # names from the data: text, never markup
    head = f"MLPerf® Inference v{md(round_)} {md(division.capitalize())} {md(suite_name)}."
    if rnd is not None:
        d, url = rnd.retrieved, safe_url(rnd.source)
        label = md(source_label(rnd, ctx.loaded.get(round_, "")))
        where = f"[{label}]({url})" if url else f"{md(rnd.source)} ({label})"
        src = f"Retrieved from {where} on {d.day} {d:%B} {d.year}."
    else:
        src = "Source and retrieval date unknown: the round is not in data/rounds.toml."
    parts = [head, entries_by_benchmark(g, cited, ctx) + "<br>", src]
    derived = _derived_sentence(g.derived_kinds, ctx.publisher)
    if derived:
        parts.append(derived)
    inferred = inferred_sentence(g, ctx.display)
    if inferred:
        parts.append(md(inferred))
    parts += [NOT_VERIFIED if g.derived_kinds else VERIFIED, TRADEMARK]
    return " ".join(parts)


def reader_notes(r: Rendered, ctx: NoteContext) -> list[str]:
    """The footnote definitions of an article, in note order."""
    cited = cited_entries(r)
    return [
        f"[^{r.groups[k].number}]: {reader_note(r.groups[k], cited.get(k, {}), ctx)}"
        for k in sort_keys(r.groups)
    ]


def _markers(text: str) -> str:
    """Generated markers as Markdown footnote references, those of one citation separated."""

    def run(m: re.Match[str]) -> str:
        return FN_SEP.join(f"[^{x.group(2)}]" for x in GENERATED_MARKER.finditer(m.group(0)))

    return MARKER_RUN.sub(run, text)


def _wrap_ids(text: str, details: dict[tuple[str, str], str] | None = None) -> str:
    """Entry IDs in prose and cells as links to their official result (*details*), unbreakable;
    inside link text or an HTML link only unbreakable; inside code, tags and link targets left
    alone, as on an admonition's title line, whose quoted title cannot hold markup."""
    if re.match(r"\s*(?:!!!|\?\?\?)", text):
        return text
    links = details or {}
    span = r'<span class="gi-id">\1</span>'
    pieces = _OPAQUE.split(text)
    in_link = False  # between <a ...> and </a>
    for i, piece in enumerate(pieces):
        if i % 2:
            if piece.startswith("[") and not piece.startswith("[^"):
                text_part, _, target = piece.partition("](")
                pieces[i] = f"{ENTRY_ID.sub(span, text_part)}]({target}"
            in_link = (in_link or bool(re.match(r"<a\b", piece))) and not piece.startswith("</a")
        elif in_link:
            pieces[i] = ENTRY_ID.sub(span, piece)
        else:
            pieces[i] = ENTRY_ID.sub(lambda m: entry_link(m.group(1).split("-")[0], m.group(1), links), piece)
    return "".join(pieces)


def _cell(cell: str) -> str:
    m = TABLE_CELL.match(cell.strip())
    if not m:
        return cell
    # a space between the parts (each sub-line is a block: it shows nothing): run together, their
    # text ("14,2118 GPUs · 6.1-0052median") was what search indexed and a copy of the cell held
    out = f'{m["value"]} <span class="gi-sub">{m["detail"].replace(", ", " · ", 1)}</span>'
    if m["median"]:
        out += f' <span class="gi-sub">{m["median"]}</span>'
    return f" {out} "


def _table_row(line: str) -> str:
    if not line.startswith("|") or set(line) <= set("|-: "):
        return line
    cells = line.split("|")
    return "|".join(cells[:1] + [_cell(c) for c in cells[1:-1]] + cells[-1:])


def _without_line_column(row: str) -> str:
    """A row of the provenance table without its first cell: template lines are for the review view."""
    return "|" + row.split("|", 2)[2]


def drop_empty_headings(lines: list[str]) -> list[str]:
    """Headings followed only by blank lines up to a heading of the same or a higher level, or the end."""
    out: list[str] = []
    for i, ln in enumerate(lines):
        m = HEADING.match(ln)
        if m:
            level = len(m.group(1))
            nxt = next((x for x in lines[i + 1 :] if x.strip()), None)
            nm = HEADING.match(nxt) if nxt is not None else None
            if nxt is None or (nm and len(nm.group(1)) <= level):
                continue
        out.append(ln)
    return out


def reader_markdown(r: Rendered, ctx: NoteContext) -> str:
    """The page readers see, made from the rendered article (see the module docstring)."""
    lines: list[str] = []
    placed = in_fence = in_provenance = False
    for ln in r.markdown.split("\n"):
        if ln.startswith("```"):
            in_fence = not in_fence
        if in_fence:
            lines.append(ln)
            continue
        if ln.startswith('<details class="gi-provenance"'):
            in_provenance = True
        elif ln.startswith("</details>"):
            in_provenance = False
        if in_provenance and ln.startswith("|"):
            ln = _without_line_column(ln)
        if NOTE_LINE.match(ln):
            if not placed:
                lines.append(PLACE_MARKER)
                placed = True
            continue
        lines.append(_wrap_ids(_table_row(_markers(ln)), ctx.details))
    lines = drop_empty_headings(lines)
    notes = reader_notes(r, ctx) if r.groups else []
    return "\n".join(lines).rstrip("\n") + ("\n\n" + "\n\n".join(notes) if notes else "") + "\n"


def benchmarks_of(r: Rendered) -> list[str]:
    return sorted({b for g in r.groups.values() for b in g.benchmarks})


def rounds_of(r: Rendered) -> list[str]:
    cited: Iterable[str] = {k[0] for k in r.groups} or set(r.article.rounds)
    return sorted(cited, key=version_key, reverse=True)
