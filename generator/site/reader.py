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
#: between the first and the last of three or more notes in a row: a superscript en dash (``¹⁻⁴``)
FN_RANGE = '<sup class="gi-fn-range">\u2013</sup>'
#: the most footnote links after one sentence: a citation of more notes than a range or two can say
#: is one link, to its first note, that names them all (the round overview followed a sentence with
#: twelve markers, "1,2,3,...,12")
MAX_MARKERS = 3
_GROUP = '<sup class="gi-fn-group">'
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


#: a note lists up to this many entries as links; past it, the IDs as plain text in a collapsed list
#: (every ID still on the page and printed, as the guidelines require), each linked to its official
#: result on the article's list of entries (:func:`entries_markdown`): the round overview's notes
#: held 2,460 links, 620 KB of its HTML and most of its tab stops
SHORT_LIST = 8


def benchmarks_cited(g: Group, ctx: NoteContext) -> str:
    """ "**DeepSeek-R1** (Server, Offline), **gpt-oss-120b** (Server)": what a note cites."""
    names = sorted(g.benchmarks, key=lambda b: (ctx.display.get(b) or b).lower())
    return ", ".join(
        f"**{md(ctx.display.get(b, b))}** ({', '.join(md(s) for s in sorted(g.benchmarks[b], key=scenario_key))})"
        for b in names
    )


def note_entries(cited: dict[tuple[str, str], set[tuple[str, str]]]) -> tuple[list[str], list[str]]:
    """The entry IDs a note cites, each once and in order, and the rows without one (named)."""
    rows = {x for xs in cited.values() for x in xs}
    return sorted(i for i, _ in rows if i), sorted(label for i, label in rows if not i)


def entries_sentence(
    g: Group, cited: dict[tuple[str, str], set[tuple[str, str]]], ctx: NoteContext, more: str
) -> str:
    """The note's entries: linked when they are few; else their IDs in a collapsed list (plain
    text: it prints, and search finds them) with a link to the list where each is linked (*more*)."""
    ids, unnamed = note_entries(cited)
    n = len(ids) + len(unnamed)
    noun = "entry" if n == 1 else "entries"
    if n <= SHORT_LIST or not more:
        said = [entry_link(g.key[0], i, ctx.details) for i in ids] + [md(x) for x in unnamed]
        return f"{noun.capitalize()} {', '.join(said)}."
    # plain IDs, one element for all (an ID never breaks at its hyphen before a digit, UAX #14 LB25)
    listed = ", ".join([md(i) for i in ids] + [md(x) for x in unnamed])
    return (
        f'<details class="gi-ids"><summary>{n} {noun}</summary><span class="gi-ids-list">{listed}</span>. '
        f"[Each linked to its official result]({more})</details>"
    )


def reader_note(
    g: Group, cited: dict[tuple[str, str], set[tuple[str, str]]], ctx: NoteContext, more: str = ""
) -> str:
    """One footnote: what :func:`generator.article.footnotes.note_text` states, with links: the
    round, division and suite with the benchmarks and scenarios cited, the source, the statements,
    and the entries (:func:`entries_sentence`; a long list last, collapsed, after the statements)."""
    round_, division, suite = g.key
    rnd = ctx.manifest.rounds.get(round_)
    suite_name = SUITE_NAMES.get(suite, suite.capitalize())  # names from the data: text, never markup
    head = f"MLPerf® Inference v{md(round_)} {md(division.capitalize())} {md(suite_name)}: {benchmarks_cited(g, ctx)}."
    if rnd is not None:
        source = rnd.source_of(suite)
        d, url = rnd.retrieved, safe_url(source)
        label = md(source_label(rnd, ctx.loaded.get(round_, "")))
        where = f"[{label}]({url})" if url else f"{md(source)} ({label})"
        src = f"Retrieved from {where} on {d.day} {d:%B} {d.year}."
    else:
        src = "Source and retrieval date unknown: the round is not in data/rounds.toml."
    entries = entries_sentence(g, cited, ctx, more)
    collapsed = entries.startswith("<details")
    parts = [src] if collapsed else [entries, src]
    derived = _derived_sentence(g.derived_kinds, ctx.publisher)
    if derived:
        parts.append(derived)
    inferred = inferred_sentence(g, ctx.display)
    if inferred:
        parts.append(md(inferred))
    parts += [NOT_VERIFIED if g.derived_kinds else VERIFIED, TRADEMARK]
    # the hover preview shows the head only (site.css): what the note cites, not its statements
    return f'{head} <span class="gi-note-more">{" ".join(parts)}</span>' + (
        f" {entries}" if collapsed else ""
    )


def entries_page_name(slug: str, round_: str) -> str:
    """The page listing an article's entries of one round, each linked to its official result (one
    page per round: a page stays within a round's size however many rounds an article cites)."""
    return f"entries/{slug}/v{round_}.md"


def note_anchor(key: GroupKey) -> str:
    """The anchor of a note's section on the article's list of entries: ``v6-1-closed-datacenter``."""
    return re.sub(r"[^a-z0-9]+", "-", f"v{key[0]} {key[1]} {key[2]}".lower()).strip("-")


def long_notes(r: Rendered) -> list[GroupKey]:
    """The notes whose entries the reader's page collapses (more than :data:`SHORT_LIST`)."""
    cited = cited_entries(r)
    return [k for k in sort_keys(r.groups) if sum(map(len, note_entries(cited.get(k, {})))) > SHORT_LIST]


def reader_notes(r: Rendered, ctx: NoteContext) -> list[str]:
    """The footnote definitions of an article, in note order."""
    cited = cited_entries(r)
    long = set(long_notes(r))
    return [
        f"[^{r.groups[k].number}]: "
        + reader_note(
            r.groups[k],
            cited.get(k, {}),
            ctx,
            f"{entries_page_name(r.article.slug, k[0])}#{note_anchor(k)}" if k in long else "",
        )
        for k in sort_keys(r.groups)
    ]


def _listed(rnd: str, row: tuple[str, str], uses: dict[str, list[str]], ctx: NoteContext) -> str:
    """One entry of the list of entries: its ID linked (no title: the ID is the link's text) and
    what it is cited for, ``DeepSeek-R1 (Server, Offline); gpt-oss-120b (Server)``."""
    rid, label = row
    url = ctx.details.get((rnd, rid)) if rid else None
    name = md(label) if not rid else f'<span class="gi-id">{md(rid)}</span>'
    if url:
        name = f'<a class="gi-entry" href="{md_attr(url)}">{name}</a>'
    order = sorted(uses, key=lambda b: (ctx.display.get(b) or b).lower())
    said = "; ".join(
        f"{ctx.display.get(b, b)} ({', '.join(sorted(uses[b], key=scenario_key))})" for b in order
    )
    return f"{name}: {md(said)}"


def entries_markdown(r: Rendered, ctx: NoteContext, round_: str) -> str:
    """The article's list of the entries of *round_* (:func:`entries_page_name`): per long note of
    the round, each entry ID once, linked to its official result, with the benchmarks and scenarios
    it is cited for."""
    cited = cited_entries(r)
    slug = r.article.slug
    out = [
        f"# Entries of v{md(round_)} cited by {md(r.article.title)}",
        "",
        f"The MLPerf® Inference v{md(round_)} entries cited by [{md(r.article.title)}](../../{slug}.md), "
        "per note, each linked to its official result, with the benchmarks and scenarios it is cited for.",
    ]
    for k in [k for k in long_notes(r) if k[0] == round_]:
        g = r.groups[k]
        suite = SUITE_NAMES.get(k[2], k[2].capitalize())
        out += [
            "",
            f"## Note {g.number}: v{md(k[0])} {md(k[1].capitalize())} {md(suite)} {{#{note_anchor(k)}}}",
            "",
            f"[Back to note {g.number}](../../{slug}.md#fn:{g.number})",
            "",
        ]
        where: dict[tuple[str, str], dict[str, list[str]]] = {}
        for (b, sc), rows in cited.get(k, {}).items():
            for row in rows:
                where.setdefault(row, {}).setdefault(b, []).append(sc)
        out += [f"- {_listed(k[0], row, uses, ctx)}" for row, uses in sorted(where.items())]
    return "\n".join(out) + "\n"


def entries_rounds(r: Rendered) -> list[str]:
    """The rounds of the article's lists of entries: those of its long notes, newest first."""
    return list(dict.fromkeys(k[0] for k in long_notes(r)))


#: a footnote marker as a built page holds it: a reference (``<sup id="fnref3:1">``), the comma or
#: dash between two, a marker of many notes, the review view's markers
_MARK_HTML = r'<sup (?:id="fnref\d*:[^"]+"|class="gi-fn[\w-]*"[^>]*)>.*?</sup>'
MARKERS_HTML = re.compile(rf"{_MARK_HTML}(?:\s*{_MARK_HTML})*")


def most_markers(html: str) -> int:
    """The most footnote links in a row on a built page: those after one sentence (issue 35: the
    round overview followed a sentence with twelve)."""
    return max((run.count("<a ") for run in MARKERS_HTML.findall(html)), default=0)


def note_runs(numbers: Iterable[int]) -> list[list[int]]:
    """*numbers* sorted, in runs of consecutive notes: ``[1, 2, 3, 5]`` -> ``[[1, 2, 3], [5]]``."""
    runs: list[list[int]] = []
    for n in sorted(set(numbers)):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return runs


def marker_links(runs: list[list[int]]) -> int:
    """The links that say the notes *runs* (:func:`note_runs`): two for a range, one per other note."""
    return sum(2 if len(r) > 2 else len(r) for r in runs)


def notes_said(runs: list[list[int]]) -> tuple[str, str]:
    """A citation of several notes in few characters and in words: ``("1–5,7", "notes 1 to 5 and 7")``."""
    short = [f"{r[0]}\u2013{r[-1]}" if len(r) > 2 else ",".join(map(str, r)) for r in runs]
    words = [w for r in runs for w in ([f"{r[0]} to {r[-1]}"] if len(r) > 2 else map(str, r))]
    told = ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]
    return ",".join(short), f"notes {told}"


def citation_markers(numbers: Iterable[int]) -> str:
    """The footnote references after a sentence citing the notes *numbers*: one per note
    (``¹,³``), three or more notes in a row as a range (``¹⁻⁴``: its first and last note linked),
    and past :data:`MAX_MARKERS` links one link to the first note naming them all (``¹⁻⁵ʼ⁷ʼ⁹``)."""
    runs = note_runs(numbers)
    parts = [
        f"[^{r[0]}]{FN_RANGE}[^{r[-1]}]" if len(r) > 2 else FN_SEP.join(f"[^{n}]" for n in r) for r in runs
    ]
    if marker_links(runs) <= MAX_MARKERS:
        return FN_SEP.join(parts)
    short, words = notes_said(runs)
    return f'{_GROUP}<a href="#fn:{runs[0][0]}" title="See {words}">{short}</a></sup>'


def _markers(text: str, seen: set[str] | None = None) -> str:
    """Generated markers as Markdown footnote references (:func:`citation_markers`); a note
    *seen* already in the paragraph is not marked again (a sentence citing every round of the
    overview repeated twelve markers), and *seen* gets the notes marked here."""
    shown = set() if seen is None else seen

    def run(m: re.Match[str]) -> str:
        new = [x.group(2) for x in GENERATED_MARKER.finditer(m.group(0)) if x.group(2) not in shown]
        shown.update(new)
        return citation_markers(int(n) for n in new) if new else ""

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
    seen: set[str] = set()  # the notes marked in the paragraph so far
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
        if not ln.strip():
            seen = set()  # a new paragraph: its notes are marked again
        # each table row and heading keeps its own markers
        own = None if ln.startswith(("|", "#")) else seen
        lines.append(_wrap_ids(_table_row(_markers(ln, own)), ctx.details))
    lines = drop_empty_headings(lines)
    notes = reader_notes(r, ctx) if r.groups else []
    text = _number_groups("\n".join(lines).rstrip("\n"))
    return text + ("\n\n" + "\n\n".join(notes) if notes else "") + "\n"


def _number_groups(text: str) -> str:
    """Each marker of many notes (:func:`citation_markers`) with an ID of its own, for the back-link
    of the note it leads to (``assets/charts.js``)."""
    count = iter(range(1, text.count(_GROUP) + 1))
    return re.sub(re.escape(_GROUP), lambda _: f'{_GROUP[:-1]} id="fngroup-{next(count)}">', text)


def benchmarks_of(r: Rendered) -> list[str]:
    return sorted({b for g in r.groups.values() for b in g.benchmarks})


def rounds_of(r: Rendered) -> list[str]:
    cited: Iterable[str] = {k[0] for k in r.groups} or set(r.article.rounds)
    return sorted(cited, key=version_key, reverse=True)
