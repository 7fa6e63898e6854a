"""Comparisons (§4, §5): compatible rounds only, and every difference between the sides
(version, division, category, verified status, scenario, chip count, benchmark and its
accuracy variant) identified in the sentence, table or figure that prints the comparison.

A comparison is a figure computed from two or more rows (a ratio, a percentage, a scaling
efficiency), a typed ratio or percentage matched to two rows, two results set side by side
in one sentence with a comparing word, or a table of results. Its *scope* is the sentence
that prints it and the sentences of the same paragraph that print its sides; for a table,
the table with its caption; for a chart, its caption. Generated blocks never count."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from generator.check.claims import COMPARISON_KINDS, Claim
from generator.check.context import COMPARE_CUE, Context
from generator.check.document import Block, Sentence
from generator.check.registry import Issue, rule
from generator.check.rules.common import at_claim, cat, claims_in, section_of
from generator.check.rules.outside import non_mlperf_comparisons
from generator.check.scope import previous, surroundings
from generator.check.vocabulary import Mentions, chip_counts, family_of, variant_of, word_number
from generator.data.row import Row
from generator.data.versions import version_key
from generator.lazy import lazy_pattern

NOT_CLOSED = lazy_pattern(
    r"\b(?:not|never|wouldn't|would not|could not|couldn't|cannot|can't)\s+(?:\w+\s+){0,3}(?:qualify|be eligible|be allowed|be permitted|be valid|meet|pass|comply)|"
    r"\b(?:none|neither|no)\b(?:\s+\w+){0,4}\s+(?:would|could|can|does|do|did)\s+(?:\w+\s+)?(?:qualify|be eligible|be allowed|meet|pass|comply)|"
    r"\b(?:a change to|changes?|changing|alter\w*|replac\w*|swap\w*)\s+(?:the\s+)?(?:model|checkpoint|weights)\b|"
    r"\b(?:outside|beyond|break\w*|violat\w*|exceed\w*)\s+(?:\w+\s+){0,3}Closed\b|"
    r"\bClosed(?:[- ]division)?\s+(?:rules?\s+)?(?:forbid|prohibit|disallow|do(?:es)? not (?:allow|permit))|"
    r"\b(?:retrain\w*|prun\w*|distill\w*|sparsi\w*|modified model|different model|altered model|changed the model|"
    r"model changes?|not mathematically equivalent|non-equivalent|lower accuracy|accuracy target|quantiz\w+ below|"
    r"speculative decoding|smaller model|fine-tun\w+)\b",
    re.I,
)


@dataclass
class Comparison:
    anchor: Claim
    rows: list[Row]
    scope: list[tuple[Block, Sentence | None]]  # where every difference may be identified
    table: bool = False
    intro: list[tuple[Block, Sentence | None]] | None = None  # where entry-level attributes may be


def _unique_rows(rows: list[Row]) -> list[Row]:
    return list({r.key: r for r in rows}.values())


def _sentence_scope(ctx: Context, c: Claim, rows: list[Row]) -> list[tuple[Block, Sentence | None]]:
    """The paragraph that prints the comparison, and the paragraphs that print its sides when a
    percentage restates them ("... 103,627 tokens/s, 2.0% more." then "so the 2.0% mixes ...")."""
    out: list[tuple[Block, Sentence | None]] = [(c.block, None)]
    for x in c.sides:
        if all(x.block is not b for b, _ in out):
            out.append((x.block, None))
    return out


def _introductions(
    ctx: Context, rows: list[Row], scope: list[tuple[Block, Sentence | None]]
) -> list[tuple[Block, Sentence | None]]:
    """Sentences anywhere in the prose that print one side's entry on its own (for a table cell,
    with the other cells of its row): they identify that entry's round, division, category and
    chip count."""
    entries = {r.result_id for r in rows if r.result_id}
    blocks = {id(b) for b, _ in scope}
    out: list[tuple[Block, Sentence | None]] = []
    seen: set[tuple[int, int, int]] = set()
    for entry, x, s in _single_entry_sentences(ctx):
        key = (id(x.block), s.start, s.end)
        if entry in entries and id(x.block) not in blocks and key not in seen:
            seen.add(key)
            out.append((x.block, s))
            if (
                x.block.table >= 0 and x.block.row > 0
            ):  # "| MLPerf® Inference v5.1 | 12,110 |": its row's label
                b = x.block
                out += [(c, None) for c in ctx.doc.cells(b.table) if c.row == b.row and c is not b]
    return out


def _single_entry_sentences(ctx: Context) -> list[tuple[str, Claim, Sentence]]:
    """(entry, claim, its sentence) of the claims of the prose that rest on rows of one entry,
    in order (found once per article)."""
    if "single-entry claims" not in ctx.memo:
        out = []
        for x in ctx.claims:
            if not x.rows or id(x.block) in ctx.note_blocks or x.block.generated:
                continue
            ids = {r.result_id for r in x.rows}
            if len(ids) == 1:
                out.append((next(iter(ids)), x, x.sentence))
        ctx.memo["single-entry claims"] = out
    return ctx.memo["single-entry claims"]


def _table_scope(ctx: Context, b: Block) -> list[tuple[Block, Sentence | None]]:
    out: list[tuple[Block, Sentence | None]] = [(x, None) for x in ctx.doc.cells(b.table)]
    return out + [(x, None) for x in ctx.doc.beside(b.table) if not x.generated]


def comparisons(ctx: Context) -> list[Comparison]:
    """Every comparison the article prints (found once per article; four rules read them)."""
    if "comparisons" not in ctx.memo:
        ctx.memo["comparisons"] = _comparisons(ctx)
    return ctx.memo["comparisons"]


def _comparisons(ctx: Context) -> list[Comparison]:
    out: list[Comparison] = []
    covered: set[tuple[int, int]] = set()
    tables: dict[int, list[Claim]] = {}
    for c in ctx.claims:
        if id(c.block) in ctx.note_blocks or ctx.quoted(c.block, c.index):
            continue
        # a table compares the rows its cells print; a median cell summarises its group (the
        # caption or header names the group) rather than setting its members side by side
        if c.block.table >= 0 and c.rows and c.kind in ("result", "per_gpu"):
            tables.setdefault(c.block.table, []).append(c)
        rows = _unique_rows(list(c.rows))
        if (c.comparison or (c.typed and c.kind in ("ratio", "pct"))) and len(rows) >= 2:
            scope = _table_scope(ctx, c.block) if c.block.table >= 0 else _sentence_scope(ctx, c, rows)
            out.append(Comparison(c, rows, scope, table=c.block.table >= 0))
            covered.add((id(c.block), c.sentence.start))
    for b in ctx.prose():
        if b.table >= 0:
            continue
        for s in b.sentences:
            if (id(b), s.start) in covered or not COMPARE_CUE.search(b.words(s)):
                continue
            side = _single_rows(ctx, b, s)
            back = BACK_COMPARE.search(b.words(s))
            if not claims_in(ctx, b, s) and back:
                # "... MI355X posted X. ... B300 posted Y. The MI355X machine comes out ahead."
                side = [x for t in b.sentences if t.end <= s.start for x in _single_rows(ctx, b, t)]
                if len(_unique_rows([r for x in side for r in x.rows])) < 2 and back is not None:
                    out += _compared_above(ctx, b, s, back)
                    continue
            rows = _unique_rows([r for x in side for r in x.rows])
            if len(rows) >= 2 and not ctx.quoted(b, side[0].index):
                out.append(Comparison(side[0], rows, _sentence_scope(ctx, side[0], rows)))
    for cells in tables.values():
        rows = _unique_rows([r for c in cells for r in c.rows])
        if len(rows) >= 2 and not any(x.table and x.anchor.block.table == cells[0].block.table for x in out):
            out.append(Comparison(_odd_one(cells), rows, _table_scope(ctx, cells[0].block), table=True))
        out += _across_rounds(ctx, cells, out)
    return out


def _odd_one(cells: list[Claim]) -> Claim:
    """Where a table's comparison is reported: at the first cell of a row that differs from most
    in division or category (the one Open row among Closed ones), else at its first cell."""
    for attr in ("division", "category"):
        values = [getattr(c.rows[0], attr) for c in cells if c.rows]
        if len(set(values)) == 2:
            rare = min(set(values), key=values.count)
            if values.count(rare) < len(values) - values.count(rare):
                return next(c for c in cells if c.rows and getattr(c.rows[0], attr) == rare)
    return cells[0]


def _across_rounds(ctx: Context, cells: list[Claim], found: list[Comparison]) -> list[Comparison]:
    """A table row that sets one workload's results of two rounds side by side ("| DLRM | v5.1
    best | v6.1 best |") compares them, whether or not a cell computes the change."""
    out = []
    by_row: dict[int, list[Claim]] = {}
    for c in cells:
        by_row.setdefault(c.block.row, []).append(c)
    for row in by_row.values():
        rows = _unique_rows([r for c in row for r in c.rows])
        keys = {r.key for r in rows}
        if len({r.round for r in rows}) < 2 or any({r.key for r in x.rows} == keys for x in found):
            continue
        out.append(Comparison(row[0], rows, _table_scope(ctx, row[0].block), table=True))
    return out


#: a sentence that compares what the sentences before it printed: "comes out clearly ahead",
#: "throughput therefore fell sharply"
BACK_COMPARE = re.compile(
    r"\b(?:ahead|behind|faster|slower|outperform\w*|beats?|beating|fell|falls?|rose|rises?|dropped|"
    r"declined|grew|climbed|jumped|doubled|halved|trails?|leads?|twice|one-\w{2,12}ieth|one-(?:third|quarter|fifth|"
    r"tenth|hundredth|thousandth)|a (?:third|quarter|fifth|tenth|fraction) of)\b",
    re.I,
)


#: what a sentence comparing results above it talks about: "of the older one's DLRM throughput"
RESULT_WORDS = re.compile(
    r"\b(?:throughput|results?|scores?|performance|tokens|queries|samples|QPS|numbers?|figures?)\b", re.I
)


def _compared_above(ctx: Context, b: Block, s: Sentence, cue: re.Match[str]) -> list[Comparison]:
    """A sentence printing no figure that compares the single-row results of the two paragraphs
    or list items right above it in its section: the data points a slide's punchline compares
    ("- v5.1 data point: ... - v6.1 data point: ... - Punchline: the newer server delivers only
    about one-fiftieth ..."). Reported at the comparing words."""
    if not RESULT_WORDS.search(b.words(s)):  # "a faster NVLink domain": hardware, no result
        return []
    side: list[Claim] = []
    blocks: list[tuple[Block, Sentence | None]] = [(b, None)]
    x = previous(ctx, b)
    for _ in range(2):
        if x is None or x.table >= 0:
            break
        side = [c for t in x.sentences for c in _single_rows(ctx, x, t)] + side
        blocks.append((x, None))
        x = previous(ctx, x)
    rows = _unique_rows([r for c in side for r in c.rows])
    if len(rows) < 2 or ctx.quoted(b, s.start + cue.start()):
        return []
    anchor = replace(side[0], block=b, index=s.start + cue.start(), text=cue.group(0))
    return [Comparison(anchor, rows, blocks)]


def _single_rows(ctx: Context, b: Block, s: Sentence) -> list[Claim]:
    """The results of one row each that sentence *s* of *b* prints."""
    return [
        x for x in claims_in(ctx, b, s) if x.rows and x.kind in ("result", "per_gpu") and len(x.rows) == 1
    ]


def _named(ctx: Context, cmp: Comparison) -> Mentions:
    m = Mentions()
    for b, s in _introductions(ctx, cmp.rows, cmp.scope):
        x = ctx.mentions(b, s)
        m.rounds |= x.rounds
        m.categories |= x.categories
        m.divisions |= x.divisions
        m.chips |= x.chips
    for b, s in cmp.scope:
        x = ctx.mentions(b, s)
        m.rounds |= x.rounds
        m.benchmarks |= x.benchmarks
        m.variants |= x.variants
        m.scenarios |= x.scenarios
        m.categories |= x.categories
        m.divisions |= x.divisions
        m.chips |= x.chips
        m.unverified = m.unverified or x.unverified
    # what a reader sees with the numbers: the paragraph before, the section's lead and headings,
    # a table's header and caption (the scope model's surroundings of the comparison)
    for b in surroundings(ctx, cmp.anchor.block):
        x = ctx.mentions(b)
        m.rounds |= x.rounds
        m.scenarios |= x.scenarios
        m.categories |= x.categories
        m.divisions |= x.divisions
        m.chips |= x.strict_chips
    for b in _tables_above(ctx, cmp):  # "| MLPerf® Inference v5.1 | 2,903 |": the rows' own labels
        x = ctx.mentions(b)
        m.rounds |= x.rounds
        m.scenarios |= x.scenarios
        m.categories |= x.categories
        m.divisions |= x.divisions
    for b, _ in cmp.scope:  # a table's "GPUs" column states each row's chip count ("8", "eight")
        count = _count_cell(b.text) if b.table >= 0 and b.row > 0 else None
        if count is not None:
            header = ctx.doc.header_of(b)
            if header is not None and CHIP_HEADER.search(header.text):
                m.chips.add(count)
    for b, s in cmp.scope:  # chip counts printed by placeholders: x.gpus, gpus(...)
        for c in claims_in(ctx, b, s):
            if c.kind == "count" and c.figure is not None and "total accelerators" in c.figure.formula:
                m.chips.add(int(c.value))
    return m


def _tables_above(ctx: Context, cmp: Comparison) -> list[Block]:
    """The cells (and captions) of the tables earlier in the comparison's section that print
    every value it compares: a change between rounds read from the table that lists them
    ("Over the two steps it rose 184.8% and then 10.4%" under the tracker's table)."""
    if cmp.anchor.block.table >= 0:
        return []
    keys = {r.key for r in cmp.rows}
    out: list[Block] = []
    for t in sorted({x.table for x in section_of(ctx, cmp.anchor.block) if x.table >= 0}):
        cells = ctx.doc.cells(t)
        if ctx.doc.index(cells[0]) > ctx.doc.index(cmp.anchor.block):
            continue
        printed = {r.key for x in cells for c in claims_in(ctx, x) for r in c.rows}
        if keys <= printed:
            out += cells + ctx.doc.beside(t)
    return out


#: a column of chip counts: "GPUs", "Accelerators", "Cards", "Chips", "Devices"
CHIP_HEADER = re.compile(r"\b(?:GPUs?|accelerators?|chips?|cards?|devices?|NPUs?|TPUs?)\b", re.I)


NUMBER_WORD_CELL = re.compile(r"[A-Za-z][a-z]*(?:[- ][a-z]+){0,4}")


def _count_cell(text: str) -> int | None:
    """The chip count a table cell holds: digits ("8", "1,024") or a number word ("eight")."""
    t = text.strip()
    if re.fullmatch(r"\d[\d,]*", t):
        return int(t.replace(",", ""))
    if not NUMBER_WORD_CELL.fullmatch(t):
        return None
    try:
        return word_number(t) or None
    except KeyError:  # a word that is not a number word ("eight-ish")
        return None


T = TypeVar("T")


@dataclass
class Difference:
    """One attribute in which the sides of a comparison differ, unstated where it is printed."""

    #: version, division, category, scenario, chip count, benchmark, accuracy target, verified status
    what: str
    values: list[str]  # each side's value as a reader would write it, in the order the sides appear
    unnamed: list[str]  # the values the comparison's scope must name

    def phrase(self) -> str:
        """ "Offline with Server results", "v6.1 with v6.0 results"."""
        if self.what == "verified status":
            return "an unverified result with verified ones"
        if len(self.values) == 2:
            return f"{self.values[0]} with {self.values[1]} results"
        return f"{', '.join(self.values[:-1])} and {self.values[-1]} results"

    def help(self) -> str:
        """What to write, with this comparison's own values."""
        v, n = self.values, self.unnamed
        examples = {
            "version": f"name {' and '.join(n)} beside the {'result it' if len(n) == 1 else 'results they'} gave, "
            f'e.g. "... in MLPerf® Inference {n[0]}"',
            "division": f'name each side\'s division, e.g. "the {v[0]} result ... the {v[1]} one"',
            "category": f'name each side\'s category, e.g. "the {v[0]} system ... the {v[1]} one"',
            "scenario": f'name each side\'s scenario, e.g. "... in the {v[0]} scenario ... in the {v[1]} scenario"',
            "chip count": f'state each side\'s chip count, e.g. "the {v[0]} system ... the {v[1]} one"',
            "benchmark": f'name each side\'s benchmark, e.g. "on {v[0]} ... on {v[1]}"',
            "accuracy target": f'name each side\'s benchmark with its accuracy target, e.g. "{v[0]} ... {v[1]}"',
            "verified status": "say which result is unverified",
        }
        return examples[self.what]


def _in_order(values: list[T]) -> list[T]:
    return list(dict.fromkeys(values))


def undisclosed(ctx: Context, cmp: Comparison) -> list[Difference]:
    """The differences between the sides that the comparison's scope does not identify. With
    *k* values of one attribute, naming *k − 1* of them identifies it, except scenarios, which are
    all named (one named scenario reads as both sides'), chip counts of system totals, which are
    all named (the rack's 72 GPUs say nothing of the box's), and categories, where every one but
    Available is named (an unnamed category reads as Available); of the rounds, every one but the
    newest (which may be the article's own) must be named."""
    rows, named, out = cmp.rows, _named(ctx, cmp), []

    def check(
        what: str, values: list, shown: set, fmt: Callable[[Any], str] = str, every: bool = False
    ) -> None:
        values = _in_order(values)
        if len(values) > 1 and len(set(values) - shown) > (0 if every else 1):
            out.append(Difference(what, [fmt(v) for v in values], [fmt(v) for v in values if v not in shown]))

    rounds = _in_order([r.round for r in rows])
    newest = max(rounds, key=version_key)
    older = [v for v in rounds if v != newest and v not in named.rounds]
    if older:
        out.append(Difference("version", [f"v{v}" for v in rounds], [f"v{v}" for v in older]))
    check("division", [r.division for r in rows], named.divisions, lambda d: f"{d.capitalize()}-division")
    # naming "Available" for one side does not say the other is Preview or RDI: a reader takes an
    # unnamed category for Available, so every other one must be named
    categories = _in_order([r.category for r in rows])
    if len(categories) > 1 and any(v not in named.categories and v != "available" for v in categories):
        out.append(
            Difference(
                "category",
                [cat(v) for v in categories],
                [cat(v) for v in categories if v not in named.categories],
            )
        )
    # one scenario named reads as the scenario of both sides ("B300 posts X in the Server
    # scenario. MI355X: Y"): every side's is named
    check("scenario", [r.scenario for r in rows], named.scenarios, every=True)
    if all(r.gpus for r in rows):  # CPU-only systems have no accelerator count to state
        # of system totals, a chip count named for one side says nothing of the other's ("the
        # 72-GPU rack ... the box"); per GPU or as a scaling, naming one of two is enough
        totals = cmp.anchor.kind not in ("per_gpu", "scaling") and "per_gpu" not in cmp.anchor.basis
        check("chip count", [r.gpus for r in rows], named.chips, lambda n: f"{n}-GPU", every=totals)
    fams = [family_of(r.benchmark) for r in rows]
    of_family = {family_of(r.benchmark): r.benchmark for r in reversed(rows)}
    check("benchmark", fams, {family_of(b) for b in named.benchmarks}, lambda f: _display(ctx, of_family[f]))
    if len(set(fams)) == 1:
        variants = [variant_of(r.benchmark) or "base" for r in rows]
        of_variant = {variant_of(r.benchmark) or "base": r.benchmark for r in rows}
        check("accuracy target", variants, named.variants, lambda v: _display(ctx, of_variant[v]))
    sides_unverified = cmp.anchor.unverified or any(
        c.unverified for b, s in cmp.scope for c in claims_in(ctx, b, s)
    )
    if sides_unverified and not named.unverified:
        out.append(Difference("verified status", ["unverified", "verified"], ["unverified"]))
    return out


def _display(ctx: Context, benchmark: str) -> str:
    """A benchmark as readers know it: its name in data/benchmarks.toml ("Llama2-70b-99.9")."""
    rule_ = ctx.manifest.rules.benchmarks.get(benchmark)
    return rule_.name if rule_ else benchmark


@rule(
    "MLP007",
    "comparison-difference-undisclosed",
    family="comparisons",
    severity="error",
    guideline="§5 Identify submission differences",
    summary="A comparison whose sides differ in version, division, category, verified status, scenario, chip count or benchmark, with the difference not identified where it is printed.",
    bad="The B300 rack delivers 2.5× the per-GPU throughput of the B200 system.  (72 vs 8 GPUs, Preview vs Available)",
    good="The 72-GPU B300 rack (Preview) delivers 2.5× the per-GPU throughput of the 8-GPU B200 system (Available).",
    scoped=(
        "Both systems below are Available.\n\nThe B300 rack delivers 2.5× the per-GPU throughput of the B200 system.  (72 vs 8 GPUs)",
        "The rack below has 72 GPUs, the B200 system eight; both are Available.\n\nThe B300 rack delivers 2.5× the per-GPU throughput of the B200 system.",
    ),
)
def difference_undisclosed(ctx: Context) -> Iterator[Issue]:
    """Reports a comparison whose sides differ in a way its sentence, table or figure does
    not identify. With *k* different values of one attribute, naming *k − 1* of them
    identifies the difference (the last is the other side); of the rounds, every one but the
    newest must be named ("earlier this year" names none). Digits inside product names
    ("NVL72") do not state a chip count; generated footnotes and compliance text do not count.
    The message says what is compared ("Offline with Server results") and the help what to
    write for that difference."""
    seen: set[tuple[int, int]] = set()
    for cmp in comparisons(ctx):
        missing = undisclosed(ctx, cmp)
        found = _compat(ctx, cmp) if any(d.what == "benchmark" for d in missing) else None
        if found and found[0] == "MLP009" or _composite(cmp.anchor):
            # benchmarks the Compatibility Table says may not be compared at all (DLRM-v2 in
            # v5.1, DLRM-v3 in v6.0): naming them would not make the comparison allowed; a
            # composite combines benchmarks (§8: MLP006, MLP023 read it), it does not set them side by side
            missing = [d for d in missing if d.what != "benchmark"]
        key = (id(cmp.anchor.block), cmp.anchor.index)
        if missing and key not in seen:
            seen.add(key)
            where = "table" if cmp.table else "sentence"
            issue = at_claim(
                cmp.anchor,
                f"{cmp.anchor.text} compares {' and '.join(d.phrase() for d in missing)}, and its {where} does not say so",
                "; ".join(d.help() for d in missing),
            )
            if _scaling_sizes_only(cmp, missing):
                # a scaling efficiency says by itself that the sizes differ, not which sizes
                issue = replace(
                    issue,
                    message=issue.message
                    + " (a scaling efficiency names the difference in kind, not the chip counts)",
                    undecided=True,
                )
            yield issue


def _composite(c: Claim) -> bool:
    """A figure a template made by adding figures up (``(a|float / b|float + ...) / 3``)."""
    todo = [c.figure.calc] if c.figure is not None else []
    while todo:
        calc = todo.pop()
        if isinstance(calc, dict):
            if calc.get("op") == "arith" and calc.get("operator") in ("+", "-"):
                return True
            todo.extend(calc.get("args", ()))
    return False


def _scaling_sizes_only(cmp: Comparison, missing: list[Difference]) -> bool:
    return [d.what for d in missing] == ["chip count"] and (
        cmp.anchor.kind == "scaling"
        or SCALING_WORDS.search(cmp.anchor.block.words(cmp.anchor.sentence)) is not None
    )


SCALING_WORDS = re.compile(r"\bscal(?:ing|es|ed)\b", re.I)


@rule(
    "MLP008",
    "open-closed-undisclosed",
    family="comparisons",
    severity="error",
    guideline="§5 Identify submission differences",
    summary="An Open-division result compared with a Closed one without saying how the Open result would not qualify as Closed.",
    bad="The Open-division entry is 6.3% faster than the Closed-division one.",
    good="The Open-division entry, which used speculative decoding the Closed rules do not allow, is 6.3% faster than the Closed-division one.",
    scoped=(
        "## Why these results are in the Open division\n\nHPE ran a third-party checkpoint.\n\n## Per GPU\n\nThe Open slice is 4.2% above the Closed rack.  (a checkpoint is named, not that the Closed rules forbid it)",
        "## Why these results are in the Open division\n\nServing a checkpoint other than the reference model is a change to the model, which the Closed division does not allow.\n\n## Per GPU\n\nThe Open slice is 4.2% above the Closed rack.",
    ),
)
def open_closed(ctx: Context) -> Iterator[Issue]:
    """Reports an Open-versus-Closed comparison whose paragraph never says in what way the
    Open result would not qualify as a Closed one (a changed model, a different accuracy
    target, techniques the Closed rules forbid), in any wording."""
    for cmp in comparisons(ctx):
        if len({r.division for r in cmp.rows}) < 2:
            continue
        # the explanation often precedes the comparison ("These Open results would not qualify ...
        # With that difference stated, ..."), in its section or a section before it ("Why these
        # results are in the Open division"): what a reader has read by the end of its section
        section = section_of(ctx, cmp.anchor.block)
        upto = ctx.doc.index(section[-1]) if section else ctx.doc.index(cmp.anchor.block)
        upto = _explained_next(ctx, upto)
        text = "\n".join(b.text for b in ctx.doc.blocks[: upto + 1] if not b.generated)
        if not NOT_CLOSED.search(text):
            yield at_claim(
                cmp.anchor,
                f"{cmp.anchor.text} compares Open and Closed results without saying how the Open result would not qualify as Closed",
                "say what the Open submission changed that the Closed rules do not allow",
            )


def _explained_next(ctx: Context, upto: int) -> int:
    """The end of the section after the one ending at *upto* when its heading is about the
    divisions ("## 3. Why the Open result would not qualify as Closed"): the explanation a
    reader of the table reads next; else *upto*."""
    blocks = ctx.doc.blocks
    nxt = upto + 1
    while nxt < len(blocks) and blocks[nxt].generated:
        nxt += 1
    if nxt >= len(blocks) or blocks[nxt].kind != "heading" or not DIVISION_HEADING.search(blocks[nxt].text):
        return upto
    end = next((k for k in range(nxt + 1, len(blocks)) if blocks[k].kind == "heading"), len(blocks))
    return end - 1


#: a heading about the divisions: "Why the Open result would not qualify as Closed"
DIVISION_HEADING = re.compile(r"\b(?:Open|Closed)\b", re.I)


def _side_rows(calc: Any) -> list[Row]:
    """The rows a figure's calculation rests on (``{"op": ..., "row"/"rows"/"args": ...}``)."""
    if not isinstance(calc, dict):
        return []
    rows = [calc["row"]] if isinstance(calc.get("row"), Row) else []
    rows += [r for r in calc.get("rows", ()) if isinstance(r, Row)]
    return rows + [r for a in calc.get("args", ()) for r in _side_rows(a)]


def _power_against_performance(c: Claim) -> bool:
    """Whether a comparison sets a power submission against a performance-only one: some side
    is all power submissions and another all performance-only. Two medians of groups that each
    hold both kinds compare the groups, not a power submission with a performance-only one.
    Sides unknown (a sentence that prints several rows): every row is a side."""
    calc = c.figure.calc if c.figure is not None else None
    args = calc.get("args", []) if isinstance(calc, dict) else []
    sides = [_side_rows(a) for a in args] if len(args) >= 2 else [list(x.rows) for x in c.sides]
    sides = [s for s in sides if s]
    if len(sides) < 2:
        return True
    kinds = [{r.has_power for r in s} for s in sides]
    return {True} in kinds and {False} in kinds


def _compat(ctx: Context, cmp: Comparison) -> tuple[str, str, str] | None:
    """("MLP009" or "MLP010", message) for a comparison across rounds that the Compatibility
    Table (``data/compatibility.toml``, per suite) does not allow or does not cover."""
    rounds = sorted({r.round for r in cmp.rows}, key=version_key)
    across = ", ".join("v" + v for v in rounds)
    note = ctx.manifest.compat.power_note()
    # the note holds within a round too: a ratio or a comparing sentence, not a table of rows
    if (
        len({r.has_power for r in cmp.rows}) > 1
        and note is not None
        and (len(rounds) > 1 or not cmp.table)
        and _power_against_performance(cmp.anchor)
    ):
        return (
            "MLP009",
            f"{cmp.anchor.text} compares a power submission's performance with a performance-only "
            f"submission{' across ' + across if len(rounds) > 1 else ' of ' + across}; the Compatibility Table's note: '{note.text}'",
            "compare power submissions with power submissions, and performance-only with performance-only",
        )
    if len(rounds) < 2:
        return None
    benches = sorted({r.benchmark for r in cmp.rows})
    fams = {family_of(b) for b in benches}
    if len(fams) > 1 and _lineage(fams):
        return (
            "MLP009",
            f"{cmp.anchor.text} compares {' and '.join(benches)}, different benchmarks, across {across}",
            "compare results of compatible rounds of the same benchmark",
        )
    suites = sorted({r.suite for r in cmp.rows})
    if len(suites) > 1:
        return (
            "MLP009",
            f"{cmp.anchor.text} compares {' and '.join(s.title() for s in suites)} results across {across}; "
            "the Compatibility Table has a table per suite, and results of different suites are not comparable",
            "compare results of one suite (Datacenter with Datacenter, Edge with Edge)",
        )
    return _verdicts(ctx, cmp, across)


def _verdicts(ctx: Context, cmp: Comparison, across: str) -> tuple[str, str, str] | None:
    """The first pair of rounds, per benchmark, that the table does not let one compare."""
    for bench in sorted({r.benchmark for r in cmp.rows}):
        rows = [r for r in cmp.rows if r.benchmark == bench]
        rounds = sorted({r.round for r in rows}, key=version_key)
        scenario = next((r.scenario for r in rows if r.scenario.lower() == "multistream"), "")
        for old, new in itertools.combinations(rounds, 2):
            v = ctx.manifest.comparable(bench, rows[0].suite, old, new, scenario)
            if v.ok is None:
                return (
                    "MLP010",
                    f"{cmp.anchor.text} compares {bench} across {across}, and {v.why}",
                    "compare results of one round, or record the table's row in data/compatibility.toml",
                )
            if v.ok is False:
                return (
                    "MLP009",
                    f"{cmp.anchor.text} compares {bench} across {across}; {v.why}",
                    "compare results of rounds inside one compatible span of the benchmark's row",
                )
    return None


def _lineage(fams: set[str]) -> bool:
    """Benchmarks that replaced one another (dlrm-v2 and dlrm-v3): never comparable."""
    return len({re.sub(r"[-_]?v\d+$", "", f) for f in fams}) == 1


@rule(
    "MLP009",
    "incompatible-rounds",
    family="comparisons",
    severity="error",
    guideline="§4 Compatible results",
    summary="A comparison across rounds that the Compatibility Table makes incompatible, or with a result from outside MLPerf®.",
    bad="DLRM-v3 in v6.1 is 48× below DLRM-v2 in v5.1.",
    good="Compare DLRM-v3 results of v6.0 and v6.1 only.",
    scoped=(
        "## Whisper Offline, Closed\n\nNVIDIA's DGX B200 (Datacenter, v5.1) did 12.3 times the Edge workstation's v6.1 result.  (two suites)",
        "## Whisper Offline, Closed Datacenter\n\nThe best v6.1 row is 17.5% above the best v5.1 row.  (one span of the Datacenter row, continued by v6.1)",
    ),
)
def incompatible_rounds(ctx: Context) -> Iterator[Issue]:
    """Reports a comparison across rounds that the MLPerf® Compatibility Table does not allow:
    rounds outside one compatible span of the benchmark's row in its suite's table (recorded in
    ``data/compatibility.toml``; a round newer than the table continues a span reaching its last
    column only for the rounds ``data/rounds.toml`` lists in ``compatible_with``), results of
    different suites, the performance of a power submission set against a performance-only one,
    or two benchmarks that replaced one another. The finding quotes the table's row. A comparison
    of an MLPerf® result with a measurement that is not one (a vendor's own harness, a load
    test, a dashboard: :mod:`generator.check.rules.outside`) is reported too."""
    for cmp, found in _once_per_paragraph(ctx, "MLP009"):
        yield at_claim(cmp.anchor, found[1], found[2])
    yield from non_mlperf_comparisons(ctx)


def _once_per_paragraph(ctx: Context, code: str) -> Iterator[tuple[Comparison, tuple[str, str, str]]]:
    """The comparisons *code* reports, once per paragraph and set of compared rows ("{{ b }}
    against {{ a }}. The gap is {{ pct_change(b, a) }}" is one comparison), each at its ratio or
    percentage where the paragraph prints one."""
    chosen: dict[tuple[int, frozenset[str]], tuple[Comparison, tuple[str, str, str]]] = {}
    for cmp in comparisons(ctx):
        found = _compat(ctx, cmp)
        if not found or found[0] != code:
            continue
        a = cmp.anchor
        key = (id(a.block), frozenset(str(r.key) for r in cmp.rows))
        old = chosen.get(key)
        if old is None or (old[0].anchor.kind not in COMPARISON_KINDS and a.kind in COMPARISON_KINDS):
            chosen[key] = (cmp, found)
    yield from chosen.values()


@rule(
    "MLP010",
    "compatibility-unknown",
    family="comparisons",
    severity="warning",
    guideline="§4 Compatible results",
    summary="A comparison across rounds of a benchmark the Compatibility Table does not list.",
    bad="The best e2e-rag-db row of v6.1 is 20% above v6.0's.  (the table has no e2e-rag-db row)",
    good="Compare e2e-rag-db results of one round only, until the Compatibility Table lists it.",
)
def compatibility_unknown(ctx: Context) -> Iterator[Issue]:
    """Reports a cross-round comparison of a benchmark that the Compatibility Table (as
    ``data/compatibility.toml`` records it) does not list in the suite, so nothing shows the
    rounds are comparable."""
    for cmp, found in _once_per_paragraph(ctx, "MLP010"):
        yield at_claim(cmp.anchor, found[1], found[2])


def _single_row_entries(ctx: Context, b: Block) -> set[str]:
    """The entries of a block's single-row claims (once per block: asked for each of its claims)."""
    key = f"single-row entries {id(b)}"
    if key not in ctx.memo:
        ctx.memo[key] = {
            x.rows[0].result_id
            for x in claims_in(ctx, b)
            if x.rows and len(x.rows) == 1 and x.kind != "entry"
        }
    found: set[str] = ctx.memo[key]
    return found


CLAUSE_BREAK = re.compile(r"[,;:()\[\]]|\b(?:and|or|while|whereas|against|versus|vs\.?)\b")


def _own_chip_counts(ctx: Context, c: Claim, here: list[Claim]) -> set[int]:
    """The chip counts written between the previous value of the sentence and *c*: the words
    that introduce this value ("..., its 64-GPU GB200 NVL72 rack 901,058")."""
    before = [
        x.index + len(x.text)
        for x in here
        if x is not c and x.rows and x.kind != "entry" and x.index < c.index
    ]
    start = max(before, default=c.sentence.start)
    clause = CLAUSE_BREAK.split(c.block.text[start : c.index])[-1]  # the noun phrase right before it
    return chip_counts(clause, strict=True)


def _divides_by(c: Claim, gpus: int) -> bool:
    """Whether *c*'s sentence divides by the row's chip count ("113,685 ÷ 8 = 14,211", "divided by
    72", "Divided by eight")."""
    return any(_count_cell(m.group(1)) == gpus for m in DIVISOR.finditer(c.block.words(c.sentence)))


#: what a value is divided by: "÷ 8", "divided by eight", "over 72"
DIVISOR = re.compile(
    r"(?:÷|/|\bdivided\s{1,3}by|\bover)\s{0,2}(\d{1,5}|[a-z]{3,12}(?:-[a-z]{3,8})?)\b(?![.,]\d)", re.I
)


def _misnamed(ctx: Context, c: Claim) -> str:
    """What the sentence names wrongly about the value *c*, or ""."""
    r = c.rows[0]
    m = ctx.mentions(c.block, c.sentence)
    here = claims_in(ctx, c.block, c.sentence)
    if any(x.typed and not x.rows and x.unit in ("throughput", "per_gpu") for x in here):
        return ""  # what it names may describe a number that matched nothing (MLP029 reports that)
    others = [x for x in here if x is not c and x.rows and x.kind != "entry"]
    about_one = _single_row_entries(ctx, c.block) == {r.result_id}
    if about_one:  # a paragraph about one entry describes it anywhere: its category, round, size
        p = ctx.mentions(c.block)
        m = Mentions(
            rounds=m.rounds or p.rounds,
            scenarios=m.scenarios,
            categories=m.categories or p.categories,
            # unless the sentence states its count its own way ("113,685 ÷ 8 = 14,211")
            strict_chips=m.strict_chips or (set() if _divides_by(c, r.gpus) else p.strict_chips),
        )
    explained = {
        k: {getattr(o, k) for x in others for o in x.rows} for k in ("scenario", "category", "round")
    }
    explained["gpus"] = {o.gpus for x in others for o in x.rows}
    checks: list[tuple[str, set, object, set, Callable[[Any], str]]] = [
        ("scenario", m.scenarios, r.scenario, explained["scenario"], str),
        ("category", m.categories, r.category, explained["category"], cat),
        ("version", m.rounds, r.round, explained["round"], lambda v: f"v{v}"),
    ]
    if r.gpus:
        per_node = {r.gpus // r.nodes} if r.nodes and r.nodes > 1 else set()  # a rack's per-node size
        own = _own_chip_counts(ctx, c, here)
        if own:  # "a four-GPU server (entry ...) at 2,616 ms": the count written with this value
            checks.append(("chip count", own - per_node, r.gpus, set(), str))
        else:
            checks.append(("chip count", m.strict_chips - per_node, r.gpus, explained["gpus"], str))
    for what, named, actual, other, fmt in checks:
        unexplained = named - {actual} - other
        if actual not in named and unexplained:
            says = ", ".join(fmt(v) for v in sorted(unexplained, key=str))
            return f"the sentence says {says} ({what}), but {c.text} is the {fmt(actual)} result of {r.result_id} {r.benchmark} {r.scenario}"
    return ""


@rule(
    "MLP025",
    "attribute-misnamed",
    family="comparisons",
    severity="error",
    guideline="§10 Statements must be clear and correct",
    summary="A value attributed to the wrong scenario, category, round or chip count.",
    bad="In the Server scenario it delivered 114,569 tokens/s.  (114,569 is the Offline result)",
    good="In the Offline scenario it delivered 114,569 tokens/s.",
)
def attribute_misnamed(ctx: Context) -> Iterator[Issue]:
    """Reports a value from one row whose sentence names a different scenario, category,
    round or chip count than the row's, and no other value in the sentence explains it."""
    for c in ctx.claims:
        if len(c.rows) != 1 or c.kind not in ("result", "per_gpu") or id(c.block) in ctx.note_blocks:
            continue
        if c.block.table >= 0 or ctx.quoted(c.block, c.index):
            continue
        message = _misnamed(ctx, c)
        if message:
            yield at_claim(c, message, "name the row's own scenario, category, round and chip count")
