"""Verified and unverified (§1, §2, §3, §8, §9, §10): derived, composite and unverified values
carry "Result not verified by MLCommons Association." and are never called verified or
official; official results are never called unverified; inferred results are explained."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from generator.article.footnotes import INTERACTIVE_SINCE, NOT_VERIFIED
from generator.check.claims import Claim
from generator.check.context import COMPARE_CUE, Context, own_score
from generator.check.document import Block
from generator.check.findings import Finding
from generator.check.fix import Edit, Source
from generator.check.notes import NOTE_START
from generator.check.registry import Issue, rule
from generator.check.rules.common import (
    LEGEND_CORE,
    NOT_VERIFIED_RE,
    UNVERIFIED_STATEMENT_RE,
    at,
    at_claim,
    at_note,
    claims_in,
    everything,
    label,
    states_derived,
    states_not_verified,
)
from generator.check.rules.numbers import attributed, bounded, mistyped, presented_as_result
from generator.check.scope import following, note_of, own_run, surroundings
from generator.data.row import Row
from generator.data.versions import version_key
from generator.lazy import lazy_pattern

OFFICIAL = re.compile(r"\b(?:MLCommons[- ])?(?:official(?:ly)?|verified|certified)\b", re.I)
NEGATED = re.compile(
    r"(?:\bnot|\bnever|\bno|\bnon|\bun|\bnor|\brather than|\binstead of)[\s-]*(?:an?\s+|the\s+|yet\s+|been\s+)?$",
    re.I,
)
SOURCE_OF = re.compile(
    r"(?:\bfrom|\bin|\bon|\bof|\bper|\bby|\bwith|\busing|\bagainst|\bbased on|\bderived from|\brecomputed from|\bdivid\w+)\s+(?:the\s+|an?\s+|its\s+|their\s+)?(?:\w+\s+){0,2}$",
    re.I,
)
COST_CONTEXT = re.compile(
    r"^\S*\s*(?:per|a|for each|/)\s*(?:(?:million|1M|thousand|1,000,000)\s+)?(?:output\s+)?tokens?\b", re.I
)


def derived_claims(ctx: Context) -> list[Claim]:
    """Values the article computes rather than reads from an official entry."""
    out = []
    for c in ctx.claims:
        if ctx.quoted(c.block, c.index) or id(c.block) in ctx.note_blocks:
            continue
        if not c.typed:
            if c.derived or c.unverified:
                out.append(c)
            continue
        if (
            c.kind == "per_gpu"
            or c.unverified
            or c.kind in ("ratio", "pct")
            and (c.rows or _results_context(ctx, c))
            or c.kind == "money"  # a cost per token is computed; a price per GPU-hour is an input
            and COST_CONTEXT.search(c.block.text[c.index + len(c.text) : c.index + len(c.text) + 40])
            or c.kind != "entry"
            and COMPOSITE.search(c.block.text[c.sentence.start : c.index])
        ):
            out.append(c)
    return out


#: a value that combines results: "the composite score ... is 1.19", "a geometric mean of 1.12"
COMPOSITE = re.compile(
    r"\b(?:composite|geometric mean|geomean|harmonic mean|weighted (?:average|mean|score))\b", re.I
)


def _results_context(ctx: Context, c: Claim) -> bool:
    m = ctx.mentions(c.block, c.sentence)
    return bool(m.benchmarks or m.entries) and bool(COMPARE_CUE.search(c.block.words(c.sentence)))


#: what MLP006 says is missing
NOT_VERIFIED_MISSING = f'"{NOT_VERIFIED}"'
DERIVED_MISSING = "a statement that derived metrics are not official MLPerf® metrics"
MD_NOTE_START = re.compile(r"\s*\[\^[^\]\s]+\]:")


def _note_start(line: str) -> bool:
    return bool(NOTE_START.match(line) or MD_NOTE_START.match(line))


def fix_not_verified(source: Source, f: Finding) -> Edit | None:
    """ "Result not verified by MLCommons Association." written into the results footnote of a
    hand-written article, before its trademark legend (else at its end), when that statement is
    all it lacks: the statement that derived metrics are not official needs the author to say
    which values are derived (a generic one would hide an undisclosed per-GPU value, MLP031)."""
    if source.template or f.col != 1 or DERIVED_MISSING in f.message or NOT_VERIFIED_MISSING not in f.message:
        return None
    if not _note_start(source.line_text(f.line)):
        return None  # no footnote of the author's to write it in
    last = f.line  # the note's lines: up to a blank line or the next note
    while source.line_text(last + 1).strip() and not _note_start(source.line_text(last + 1)):
        last += 1
    start, end = source.offset(f.line, 1), source.offset(last, len(source.line_text(last)) + 1)
    if start is None or end is None:
        return None
    legend = re.compile(r"(?:The\s+)?" + LEGEND_CORE.pattern, re.I).search(source.text, start, end)
    if legend is not None:
        return Edit.insert(*source.position(legend.start()), NOT_VERIFIED + " ")
    note = source.text[start:end].rstrip()
    stop = "" if note.endswith((".", "!", "?", ")")) else "."
    return Edit.insert(*source.position(start + len(note)), f"{stop} {NOT_VERIFIED}")


#: what settles the not-verified statement for values derived from verified results: the
#: guidelines' own example of a derived fps/W footnotes "Result verified by MLCommons Association."
#: (§6); "... are not verified by MLCommons Association" says the statement in other words
VERIFIED_BASIS = re.compile(
    r"\bResults?\s+verified\s+by\s+MLCommons\s+Association|"
    r"\bnot\s+(?:been\s+)?verified\s+by\s+(?:the\s+)?MLCommons\b",
    re.I,
)


@rule(
    "MLP006",
    "not-verified-statement-missing",
    family="verification",
    severity="error",
    guideline="§1, §2, §8, §9 Derived metrics",
    summary='Derived, composite or unverified values without "Result not verified by MLCommons Association." and a statement that derived metrics are not official.',
    bad="B300 delivers 14,211 tokens/s per GPU.[1]  (no statement in note [1])",
    good="[1] ... Per-GPU values are derived metrics and are not official MLPerf® metrics. Result not verified by MLCommons Association. ...",
    fix=fix_not_verified,
)
def not_verified_missing(ctx: Context) -> Iterator[Issue]:
    """Reports an article that prints values it computed (per-GPU values, ratios, percentages,
    costs, composites) or unverified results, but never says "Result not verified by MLCommons
    Association." or that derived metrics are not official MLPerf® metrics ("... are derived
    metrics, not official MLPerf® metrics"; "the per-GPU value ... is a derived metric" says it
    too). Calling such a value official anyway is MLP023's.

    §9: secondary and derived metrics must not be presented as official; the rules for citing
    an unverified score apply, and §2 requires the not-verified statement in the footnote. Values
    derived from verified results in an article that says they are derived and not official,
    lacking only the not-verified statement, are a warning: the guidelines' own example of a
    derived fps/W (§6) footnotes "Result verified by MLCommons Association." instead; an article
    that does as that example does (the results footnoted as verified), or says its derived values
    "are not verified by MLCommons Association" in its own words, is not reported. Typed ratios
    and percentages of official results, and nothing else computed, compare on the primary metric
    (§3's own example compares two results) rather than on a metric §9 lists: a warning, and not
    reported beside results footnoted as verified or where the article says the figure is its own
    arithmetic, not an MLPerf® metric. So is an
    article that gives the not-verified statement and lacks only the one that derived metrics
    are not official: the guidelines' own derived-metric example (§9) gives no more."""
    derived = derived_claims(ctx)
    if not derived:
        return
    missing = []
    if not states_not_verified(ctx):
        missing.append(NOT_VERIFIED_MISSING)
    if any(not c.unverified for c in derived) and not states_derived(ctx):
        missing.append(DERIVED_MISSING)
    if missing:
        c = derived[0]
        what = "unverified" if c.unverified else "derived"
        message = f"the article prints {what} values ({c.text} is one) without {' or '.join(missing)}"
        help = f"add {'both statements' if len(missing) > 1 else 'it'} to the footnote of the results they come from"
        notes = [n for n in ctx.notes.notes if not n.generated and n.entries]
        own = note_of(ctx, c) if c.unverified else None  # an unverified value's own note says it
        notes = [own] if own is not None and not own.generated else notes
        # the fix goes into the results footnote when there is one; else the value needs one
        issue = at_note(ctx, notes[0].block, message, help) if notes else at_claim(c, message, help)
        # values derived from verified results, said to be derived and not official: §9 asks for
        # the not-verified statement, but the guidelines' own example of a derived fps/W from a
        # verified result footnotes "Result verified by MLCommons Association." (§6): undecided
        only_statement = (
            len(missing) == 1 and not states_not_verified(ctx) and not any(x.unverified for x in derived)
        )
        # typed ratios and percentages of official results alone compare on the primary metric
        # (as §3's own example compares two results), none of the derived metrics §9 lists (power
        # rating, cost, model size, accuracy): undecided
        ratios = [x for x in derived if x.typed and x.kind in ("ratio", "pct") and not x.unverified]
        compared = len(ratios) == len(derived) and any(len(x.rows) > 1 for x in ratios)
        compared = compared and all(len(x.rows) != 1 for x in ratios)  # one row: of an own result
        if compared and states_derived(ctx):
            return  # a comparison on the primary metric, said to be the author's arithmetic
        if (only_statement or compared) and VERIFIED_BASIS.search(everything(ctx)):
            return  # §6's own example: derived from results footnoted as verified, or said unverified in other words
        # the not-verified statement given, only "derived metrics are not official" missing: the
        # guidelines' own example of a derived metric (§9, accuracy) footnotes the basis and
        # "Result not verified by MLCommons Association." and no more: undecided as well
        only_statement = only_statement or missing == [DERIVED_MISSING] or compared
        yield replace(issue, undecided=True) if only_statement else issue


@rule(
    "MLP022",
    "unverified-comparison-statement-missing",
    family="verification",
    severity="error",
    guideline="§3 Identify submission differences",
    summary="An unverified result compared with verified ones without the §3 statement in a footnote.",
    bad="Our own unverified run reached 15,000 tokens/s, above the 14,211 of entry 6.1-0052.",
    good="... [1] Unverified results have not been through an MLPerf® review and may use measurement methodologies and/or workload implementations that are inconsistent with the MLPerf specification for verified results.",
)
def unverified_comparison(ctx: Context) -> Iterator[Issue]:
    """Reports a comparison of an unverified result (one the article calls unverified) with
    official results when no footnote carries the statement §3 requires for such comparisons."""
    if UNVERIFIED_STATEMENT_RE.search(everything(ctx)):
        return
    for b in ctx.prose():  # "The unverified score is ahead of every verified ... result"
        for s in b.sentences:
            text = b.words(s)
            u = re.search(r"\bunverified\b", text, re.I)
            cue = COMPARE_CUE.search(text, u.end()) if u else None
            if u and cue and re.search(r"(?<!un)verified\b|\bofficial\b", text[cue.start() :], re.I):
                yield at(
                    b,
                    s.start + cue.start(),
                    "an unverified result is compared with verified results without the statement of §3",
                    'add to the footnote: "Unverified results have not been through an MLPerf® review and may use '
                    "measurement methodologies and/or workload implementations that are inconsistent with the MLPerf "
                    'specification for verified results."',
                )
                return
    for c in ctx.claims:
        if not c.unverified or ctx.quoted(c.block, c.index):
            continue
        near = [x for x in claims_in(ctx, c.block, c.sentence) if x is not c and x.rows and not x.unverified]
        if not near and c.rows and c.kind in ("ratio", "pct"):
            near = [c]  # a ratio of the unverified result to official rows
        words = c.block.words(c.sentence)
        cued, anchor = bool(COMPARE_CUE.search(words)), c
        if not near:  # "Our host delivered 91,340." then "For comparison, ... 90,205 (entry 6.1-0021)."
            near = _compared_next(ctx, c)
            cued, anchor = True, near[0] if near else c
        published = cued and PUBLISHED.search(words)  # "ahead of Dell's published figure"
        if near and cued or published:
            what = (
                f" ({label(near[0].rows[0])})" if near else f' ("{published.group(0)}")' if published else ""
            )
            yield at_claim(
                anchor,
                f"the unverified result {c.text} is compared with verified results{what} without the statement of §3",
                'add to the footnote: "Unverified results have not been through an MLPerf® review and may use '
                "measurement methodologies and/or workload implementations that are inconsistent with the MLPerf "
                'specification for verified results."',
            )
            return


#: a result named in words, not printed: "ahead of Dell's published figure", "the official score"
PUBLISHED = re.compile(
    r"\b(?:published|official|(?<!un)verified|submitted)\s+(?:\w+\s+)?(?:figures?|results?|scores?|numbers?|runs?)\b",
    re.I,
)
#: a sentence that sets what follows beside what came before: "For comparison, ...", "For
#: reference, the published result ...", "By contrast, ..."
FOR_COMPARISON = re.compile(
    r"^\W*(?:(?:for|by|in)\s+(?:comparison|contrast|reference|context)\b|compare\s+(?:that|this)\b)", re.I
)


def _compared_next(ctx: Context, c: Claim) -> list[Claim]:
    """The official values of a later sentence of *c*'s paragraph, or of the paragraph after,
    that opens by setting them beside it ("Our best run reached 32,800 tokens/s. For reference,
    the published result ... is 34,029.4 tokens/s (entry 5.1-0075).")."""
    later = [(c.block, s) for s in c.block.sentences if s.start > c.sentence.start]
    nxt = following(ctx, c.block)
    later += [(nxt, nxt.sentences[0])] if nxt is not None and nxt.sentences else []
    for b, s in later:
        if FOR_COMPARISON.search(b.words(s)):
            return [x for x in claims_in(ctx, b, s) if x.rows and not x.unverified and x.kind != "entry"]
    return []


@rule(
    "MLP023",
    "derived-called-official",
    family="verification",
    severity="error",
    guideline="§9 Derived metrics, §10 No misrepresentation",
    summary='"Verified" or "official" applied to a derived or unverified value.',
    bad="B300 posts an official 14,211 tokens/s per GPU.",
    good="B300 posts 14,211 tokens/s per GPU, derived from the official system result.",
    scoped=(
        "| System | Official MLPerf® Inference v6.1 score |\n|---|--:|\n| HPE XD690 | 14,211 |  (the column holds per-GPU values)",
        "| System | Per-GPU value (derived) |\n|---|--:|\n| HPE XD690 | 14,211 |",
    ),
)
def derived_called_official(ctx: Context) -> Iterator[Issue]:
    """Reports "official", "verified" or "certified" applied, in the same clause, to a value
    the article derived (per GPU, a ratio, a percentage, a cost) or to an unverified result.

    Wording that names the source ("derived from the official results") is not reported."""
    derived = derived_claims(ctx)
    yield from _official_columns(ctx, derived)
    seen: set[tuple[int, int]] = set()
    for c in derived:
        if c.block.table >= 0 and c.block.row > 0:
            continue  # a cell: its column's header says what it is (above)
        s = c.sentence
        text = c.block.text
        if re.search(r"\b(?:derived|unverified)\s*$", text[max(0, c.index - 14) : c.index], re.I):
            continue  # "a derived 5,668 tokens per second per GPU"; "(unverified 98,400 vs verified 106,898)"
        for m in OFFICIAL.finditer(text, s.start, c.index):
            if (id(c.block), m.start()) in seen or _clause(text, m.start()) != _clause(text, c.index):
                continue
            if ctx.printed(c.block, m.start()):
                continue  # "Verified" in a system's name is data
            between = text[m.end() : c.index]
            if len(between.split()) > (12 if between.rstrip().endswith(":") else 8):
                continue  # too far from the value to qualify it (unless it labels it: "the official ... score: 1.08")
            before = text[max(s.start, m.start() - 40) : m.start()]
            tail = text[m.end() : m.end() + 40]
            if NEGATED.search(before) or SOURCE_OF.search(before) or re.match(SOURCE_NOUN, tail, re.I):
                continue
            if re.match(OFFICIAL_TOTAL, tail, re.I) and DIVIDED.search(text[s.start : s.end]):
                continue  # "divided by its 72 GPUs, the rack's official result comes to 11,229 each"
            if _nearer_official(ctx, c, m.end(), derived):
                continue  # "its official 808,469 tokens per second, or 11,229 per GPU"
            if DERIVED_AFTER.match(text, c.index + len(c.text)):
                continue  # "the official result gives 11,229 per GPU (derived)"
            seen.add((id(c.block), m.start()))
            yield _called_official(c, m.start(), m.group(0))
        after = OFFICIAL_AFTER.match(text, c.index + len(c.text))
        if after and (id(c.block), after.start(1)) not in seen and not ctx.printed(c.block, after.start(1)):
            seen.add((id(c.block), after.start(1)))  # "comes out at 1.08 on the official ... score"
            yield _called_official(c, after.start(1), after.group(1))


def _called_official(c: Claim, index: int, word: str) -> Issue:
    what = "unverified" if c.unverified else "derived, not an official result"
    return at(
        c.block,
        index,
        f'"{word}" is applied to {c.text}, a value that is {what}',
        f'drop "{word}", or say the value is derived from the official result',
    )


#: "official" naming what a value right before it is: "1.08 on the official MLPerf® Inference
#: v6.1 Server score", "12,000, as the verified result"
OFFICIAL_AFTER = re.compile(
    r"[\s,]*+(?:[\w/%×-]++,?\s++){0,3}?(?:on|as|by|under|in|which\s++is|that\s++is|is)\s++(?:the\s++|an?\s++|our\s++|its\s++|their\s++)?"
    r"(official|verified|certified)\b"
    r"(?=(?:\s++[\w®.-]++){0,6}?\s++(?:scores?|results?|metrics?|ratings?)\b)",
    re.I,
)


def _nearer_official(ctx: Context, c: Claim, start: int, derived: list[Claim]) -> bool:
    """Whether an official value is printed between "official" (ending at *start*) and the
    derived claim *c*: the word qualifies the value nearest after it."""
    others = {id(d) for d in derived}
    return any(
        o.block is c.block and start <= o.index < c.index and id(o) not in others and o.kind != "entry"
        for o in ctx.claims
    )


#: a derived value labelled so right after it: "11,229 per GPU (derived)", "11,229, a derived value"
DERIVED_AFTER = lazy_pattern(
    r"(?:\s*+(?:[A-Za-z/][A-Za-z/-]{0,30}+\s++){0,5}?)?[\s,(—–-]*+(?:a\s+|an\s+|the\s+)?(?:derived|computed|calculated)\b",
    re.I,
)


SOURCE_NOUN = r"\s+(?:MLPerf®?\s+)?(?:(?:Inference\s+)?v?\d\.\d\s+)?(?:(?:Closed|Open)\s+)?(?:Datacenter\s+)?(?:(?:Server|Offline|Interactive)\s+)?(?:results?\s+(?:sheet|file|repository|page|table)|entr|submission|row|data|system result|statement|results? of)"


def _official_columns(ctx: Context, derived: list[Claim]) -> Iterator[Issue]:
    """A table column headed as official ("Official MLPerf® Inference v6.1 score", "Verified
    result"), or a row labelled so in its first cell ("**Official per-GPU score** | 14,211"),
    over derived values (per GPU, ratios): reported once, at the label."""
    labels: dict[int, tuple[Block, Claim]] = {}
    for c in derived:
        b = c.block
        if b.table < 0 or b.row == 0:
            continue
        cells = ctx.doc.cells(b.table)
        for head in (
            ctx.doc.header_of(b),
            next((x for x in cells if x.row == b.row and x.col == 0), None) if b.col > 0 else None,
        ):
            if head is not None:
                labels.setdefault(id(head), (head, c))
    for head, c in labels.values():
        m = OFFICIAL.search(head.text)
        if m is None or ctx.printed(head, m.start()) or NEGATED.search(head.text[: m.start()]):
            continue
        if re.search(r"\bderived\b|\bdivided\b|÷|\bcomputed\b|\bcalculated\b|\bour\b", head.text, re.I):
            continue
        what = "column headed" if head.row == 0 else "row labelled"
        yield at(
            head,
            m.start(),
            f'the {what} "{head.text.strip()}" holds {c.text} and other derived values, not official results',
            'label it as what it holds, e.g. "Per-GPU value (derived)"',
        )


#: "official" qualifying the system's own result, in a sentence that says how the value is made
#: from it ("divided by its GPUs, the official result comes to ...")
OFFICIAL_TOTAL = r"\s+(?:system\s+|MLPerf®?\s+)?(?:results?|scores?|figures?|numbers?|throughput|totals?)\b"
DIVIDED = lazy_pattern(
    r"\bdivid\w*|\bsplit (?:over|across|among)\b|\bspread (?:over|across)\b|\bworks? out\b|\bcomes? to\b|"
    r"\bamounts? to\b|\bequivalent to\b|\bsplit\b|\bshar(?:e|ed|es|ing)\b|\bderived\b",
    re.I,
)
CLAUSE_BREAK = re.compile(r"[;—]|,\s+(?:so|but|while|which|whereas|and)\b|\s+but\s+|\s+while\s+")


def _clause(text: str, i: int) -> int:
    """The start of the clause that holds position *i*."""
    starts = [m.end() for m in CLAUSE_BREAK.finditer(text, 0, i)]
    return starts[-1] if starts else 0


@rule(
    "MLP024",
    "official-called-unverified",
    family="verification",
    severity="warning",
    guideline="§2 Required Footnote, §10 Statements must be clear and correct",
    summary="An article that prints only official results but calls them unverified.",
    bad="Entry 6.1-0052 delivered 113,690 tokens/s.[1] ... [1] ... Result not verified by MLCommons Association.",
    good="[1] ... Result verified by MLCommons Association.",
)
def official_called_unverified(ctx: Context) -> Iterator[Issue]:
    """Reports "not verified" or "unverified" said of an article whose printed values are all
    official results read from entries: the statement misleads readers about verified results."""
    # an official result the text itself calls unverified ("an unverified score of 118,042" of
    # entry 6.1-0069) is what this rule is about, not a value the article computed
    computed = [
        c for c in derived_claims(ctx) if not (c.typed and c.unverified and c.rows and c.kind == "result")
    ]
    if computed or states_derived(ctx) or not any(c.rows and c.kind != "entry" for c in ctx.claims):
        return
    for b in ctx.doc.blocks:
        m = NOT_VERIFIED_RE.search(b.text) or (
            None if b.generated else re.search(r"\bunverified\b", b.text, re.I)
        )
        if m:
            yield at(
                b,
                m.start(),
                "the article calls its results unverified, but every value it prints is an official result read from an entry",
                'write "Result verified by MLCommons Association." or drop the statement',
            )
            return


def flagged(r: Row) -> bool:
    """Whether a row's ``inferred`` flag tells the reader something about that result.

    From v6.0 on, the submission checker sets the flag on every Interactive result: it compares
    the scenario's name ("Interactive") with the one LoadGen logged for the run ("server", as
    Interactive runs as a Server test under tighter latency bounds), and its exception for that
    pair is spelled in lower case, so it never applies. There the flag is a property of the
    scenario and the results were measured; elsewhere it marks a result the rules let an edge
    system infer from another scenario's run, or a scenario folder the checker did not match."""
    scenario_wide = r.scenario == "Interactive" and version_key(r.round) >= INTERACTIVE_SINCE
    return bool(r.inferred) and not scenario_wide


@rule(
    "MLP016",
    "inferred-undisclosed",
    family="verification",
    severity="warning",
    guideline="§10 Statements must be clear and correct",
    summary="Results the official file marks inferred (other than v6.0+ Interactive ones), cited without a footnote explaining the flag.",
    bad="The DL345 Gen12 processed 146.207 samples/s on YOLO-95 Offline.[1]  (6.1-0054, flagged inferred; note [1] says nothing of it)",
    good="[1] ... The official file marks the 6.1-0054 YOLO-95 Offline result as inferred: an edge system may report it from another scenario's run.",
)
def inferred_undisclosed(ctx: Context) -> Iterator[Issue]:
    """Reports, once per article, cited results whose ``inferred`` flag is set when no footnote
    mentions it: an edge result inferred from another scenario's run, or a flag the submission
    checker set for a scenario folder it did not match, reads as a measured result otherwise.

    The flag on Interactive results of v6.0 and later is not reported: the submission checker
    sets it on every one of them (it compares the scenario's name with the "server" scenario
    LoadGen logged for the run, and its exception for that pair is never met), so it says
    nothing about the result cited and a hand-written article need not explain it. The
    generated footnotes still say once per note what it means, for readers of the official file."""
    inferred = [c for c in ctx.claims if c.kind != "entry" and any(flagged(r) for r in c.rows)]
    if not inferred or re.search(r"\binferred\b", ctx.notes.text(), re.I):
        return
    rows = sorted({label(r) for c in inferred for r in c.rows if flagged(r)})
    shown = ", ".join(rows[:4]) + (f" and {len(rows) - 4} more" if len(rows) > 4 else "")
    yield at_claim(
        inferred[0],
        f"cites results the official file marks inferred ({shown}) and no footnote says what the flag means",
        "say in the footnote what the inferred flag means for these results",
    )


def _about_mlperf(ctx: Context, b: Block) -> bool:
    """The paragraph, or what a reader of its section has read up to it, is about MLPerf® results
    ("with the same benchmark and scenario" after a paragraph on the entry), or it prints one."""
    if any(c.rows and c.kind != "entry" for c in ctx.claims_in(b)):
        return True  # it prints an official result: "... {{ pct_change(ours, amd) }} above AMD's result"
    return any(ctx.mentions(x).benchmarks or "MLPerf" in x.text for x in [b, *surroundings(ctx, b)])


@rule(
    "MLP033",
    "unverified-term-missing",
    family="verification",
    severity="error",
    guideline="§1 Use of MLPerf Benchmark for Non-MLCommons Reviewed Results",
    summary='A score of the author\'s own run without the term "unverified" next to it.',
    bad="In our own lab, the node measured 20,000 tokens/s on MLPerf® Inference v6.1 gpt-oss-120b Server.[1]",
    good="In our own lab, the node reached an unverified score of 20,000 tokens/s on MLPerf® Inference v6.1 gpt-oss-120b Server.[1]",
)
def unverified_term_missing(ctx: Context) -> Iterator[Issue]:
    """Reports a result the sentence says the author's own run gave ("we measured", "in our own
    lab", "in-house", "internal tests"), on an MLPerf® benchmark, when the sentence does not call
    it unverified.

    A result nobody submitted for MLCommons review is unverified, and the guidelines require the
    term "unverified" next to each such score, besides "Result not verified by MLCommons
    Association." (MLP006). A number an official entry gives is not reported: it is not the
    author's run. A score on an MLPerf® benchmark that no entry gives and that is no typing
    slip of one (MLP029's) is reported too: nobody's official result, presented as one."""
    yield from _unofficial_scores(ctx)
    for c in ctx.claims:
        if not own_score(c) or c.rows or id(c.block) in ctx.note_blocks:
            continue
        text = c.block.words(c.sentence)
        if ctx.quoted(c.block, c.index) or not own_run(ctx, c) or re.search(r"\bunverified\b", text, re.I):
            continue
        if _about_mlperf(ctx, c.block):
            yield at_claim(
                c,
                f"{c.text} is a score of the author's own run, which MLCommons has not reviewed, and its "
                "sentence does not call it unverified",
                'write "unverified" next to the score, e.g. "an unverified score of 20,000 tokens/s"',
            )


def _unofficial_scores(ctx: Context) -> Iterator[Issue]:
    """Typed scores of a hand-written article that no entry gives nor nearly gives (a team's
    hackathon run, a figure from elsewhere), in a sentence that names no own run (reported
    below) and does not call them unverified."""
    if ctx.matcher is None or ctx.template:
        return
    for c in ctx.claims:
        if c.rows or not presented_as_result(ctx, c) or bounded(c) or mistyped(c) or attributed(ctx, c):
            continue
        text = c.block.words(c.sentence)
        if own_run(ctx, c) or re.search(r"\bunverified\b", text, re.I) or not _about_mlperf(ctx, c.block):
            continue
        near = f" (nearest official value: {c.candidates[0]})" if c.candidates and c.candidates[0] else ""
        yield at_claim(
            c,
            f"{c.text} is no official result{near}, and its sentence does not call it unverified",
            'if no MLCommons review produced it, write "unverified" next to it; if it is an official '
            "result, correct it and cite its entry",
        )
