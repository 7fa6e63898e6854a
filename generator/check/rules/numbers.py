"""Numbers: in a template, every number comes from a placeholder; in a hand-written article,
every number presented as an MLPerf® result is matched against the official entries."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace

from generator.check.claims import Claim
from generator.check.context import EXPECTED, Context
from generator.check.document import Block
from generator.check.matching import fmt_value, one_keystroke
from generator.check.registry import Issue, rule
from generator.check.rules.common import (
    at_claim,
    everything,
    label,
    section_of,
    states_derived,
)
from generator.check.rules.power import SETTING
from generator.check.rules.superlatives import QUESTION
from generator.check.scope import BACK_REFERENCE, OWN_RUN, own_run, previous, surroundings
from generator.check.vocabulary import PER_ACCELERATOR
from generator.data.row import Row

HEDGE = re.compile(
    r"\b(?:would|could|might|hypothetical\w*|projected|projection|estimat\w*|on the order of|if\b|assum\w*|suppose|imagine)\b",
    re.I,
)
BOUND = re.compile(
    r"(?:more than|over|above|at least|nearly|almost|about|around|roughly|approximately|close to|up to|~|some|"
    # a threshold crossed: "GB300 rack tops 600,000 tokens per second", "exceeds 1 million"
    r"tops|topped|exceeds|exceeded|surpass(?:es|ed)?|passes|passed|crosses|crossed|beyond|north of|in excess of)\s*$",
    re.I,
)
OWN = re.compile(rf"\bunverified\b|\bour (?:own|internal|lab)\b|{OWN_RUN.pattern}", re.I)
PER_GPU_DERIVED = re.compile(
    PER_ACCELERATOR + r"[^.]{0,100}\b(?:derived|computed|calculated|divid\w*|not official)|"
    r"\b(?:derived|computed|calculated|divid\w*)\b[^.]{0,100}" + PER_ACCELERATOR + "|"
    r"\bdivid\w* (?:each |every |the )?(?:system )?results? by\b",
    re.I,
)
AS_RESULT = re.compile(
    PER_ACCELERATOR + r"\s+(?:results?|scores?)\s+(?:of\s+|is\s+|was\s+)?$|\bscor(?:es|ed|ing)\s+$",
    re.I,
)
LOCAL_DERIVED = re.compile(
    r"\bderiv\w*|\bdivid\w*|\bwe comput\w*|\bour calculation|\b(?:my|our) (?:own )?arithmetic|÷", re.I
)
SAY_DERIVED = (
    "say per-GPU values are derived (a system result divided by its GPU count), not official MLPerf® metrics"
)
POWER_AFTER = re.compile(
    r"^[^.;]{0,40}?\bper\s+(?:k?W|watt|joule|kWh|dollar)\b|^[^.;]{0,40}?/\s?(?:k?W|J)\b", re.I
)


def presented_as_result(ctx: Context, c: Claim) -> bool:
    """A typed number with a results unit, not hedged, not quoted, not the article's own run."""
    if not c.typed or c.unit not in ("throughput", "per_gpu") or ctx.quoted(c.block, c.index):
        return False
    text = c.block.words(c.sentence)
    after = c.block.text[c.index : c.index + 80]
    return not (HEDGE.search(text) or OWN.search(text) or POWER_AFTER.search(after) or own_run(ctx, c))


def bounded(c: Claim) -> bool:
    return bool(BOUND.search(c.block.text[max(0, c.index - 20) : c.index]))


@rule(
    "MLP019",
    "hand-typed-number",
    family="numbers",
    severity="error",
    guideline="project rule: every number comes from the data",
    summary="A number typed by hand in a template's prose that no placeholder produced.",
    bad="The B300 row delivers 14,211 tokens/s per GPU.",
    good='The B300 row delivers {{ per_gpu("6.1-0052", "gpt-oss-120b", "Server") }} tokens/s per GPU.',
)
def hand_typed_number(ctx: Context) -> Iterator[Issue]:
    """Reports, in an article with placeholders, a number typed in its prose: it will not follow
    the data when a round is added, and nothing cites it. Model names ("Llama 2 70B"), versions,
    dates, years, entry IDs, identifiers ("B300", "NVL72", "8-GPU"), quotations and small counts
    below ten are not numbers in this sense, nor are an accuracy after the word that names it,
    times, and quantities the results do not measure (cores, hours, GB); a chip count ("72
    GPUs", "divided by 72", "÷ 72", "from 32 to 64 GPUs") that a row printed in its section has
    is checked against the data on every rebuild and not reported; another is a warning (the
    data give it: ``x.gpus``); so is a number in a question ("So, is it 2.5×?"), and a ratio
    or percentage that the figures its section prints give ("{{ a }} against {{ b }}, about 3%
    ahead"): right today, it will not follow the data (``pct_change(a, b)`` will); one they do
    not give is an error that names the value they give. A number repeating one quoted earlier
    in its paragraph (a correction: "we wrote 'about 2% faster' ... not 2%") is the quotation's. A wattage stated
    as a configured power limit or a rating ("1,000 W TDP") is a setting, not a result. A typed
    number that a row printed in its section gives is told the placeholder that prints it. The
    writer's own subject is no result: a count or an amount of money in a sentence that names no
    benchmark, scenario, entry or result ("16 eight-GPU B300 servers", "a capital outlay of
    $7.8M"), a percentage of a price or one the sentence says is assumed ("assumes 40%
    headroom"), a scheme's weights ("Scoring: 40% latency, 30% cost"). A bare number (no unit)
    that no row gives and no printed value is near ("raised from 16 to 32") is a warning: the
    checker cannot tell a setting from a result. Inline ``<!-- gpu-insights: allow MLP019
    "why" -->`` accepts a deliberate one."""
    if not ctx.template:
        return
    yield from _copied_constants(ctx)
    clauses = _clause_numbers(ctx)
    for c in ctx.claims:
        if (
            c.typed
            and c.kind != "entry"
            and not ctx.quoted(c.block, c.index)
            and not _not_a_number(ctx, c, clauses)
        ):
            issue = _typed_verdict(ctx, c)
            if issue is not None:
                yield issue


def _not_a_number(ctx: Context, c: Claim, clauses: set[str]) -> bool:
    """Whether a typed number is none in MLP019's sense: a small count, a range's first number,
    a round's name, a formula's constant, a pattern of the configuration, a clause, an ideal, a
    label's count, an accuracy, a power setting or rating, a quoted figure named again."""
    if c.value < 10 and float(c.value).is_integer() and not c.suffix and c.unit in ("", "throughput"):
        return True
    if _row_label(c) and _identifier_column(ctx, c.block):
        return True  # "| 10 | HPE ProLiant ... |" under "Line": a line number of a bill of materials
    if not c.suffix and PCT_RANGE.match(c.block.text[c.index + len(c.text) :]):
        return True  # "20–30%": the range is one percentage, read at its second number
    if not c.suffix and not c.unit and c.text in ctx.manifest.rounds:
        return True  # "that 6.1 setting", "treats 6.1 results as comparable": a round's name
    if _in_formula(c):
        return True  # "price × 1,000,000 ÷ (tokens per second × 3,600 × utilization)": a unit conversion
    if _scoring(ctx, c):
        return True  # "carries 25 of the 100 points", "| C3 points |", "within 5% ... earns 25"
    if c.unit == "money" and EXPECTED.search(c.block.words(c.sentence)):
        return True  # "its 2025 revenue of NOK 41 billion": the business's figures, no result's
    after = c.block.text[c.index + len(c.text) : c.index + len(c.text) + 40]
    if c.unit == "money" and MILLIONS.search(c.text) and not PER_AFTER.match(after):
        return True  # "closing target $6 million": no price a result makes is millions at once
    return (
        _allowed(ctx, c)
        or (_clause(c.text, clauses) and not c.suffix and not c.unit)
        or _ideal(c)
        or _label_count(c)
        or _accuracy(c)
        or _power_setting(ctx, c)
        or ctx.echoes_quote(c)  # "... 'about 2% faster' ... not 2%": the quoted figure, named again
    )


def _scoring(ctx: Context, c: Claim) -> bool:
    """A number of a scoring scheme, not a result: points of a tender's criterion ("carries 25 of
    the 100 points", "earns 25"), a value in a points, grade or weight column, a band's threshold
    ("within 5% of the best row earns 25")."""
    b, after = c.block, c.block.text[c.index + len(c.text) : c.index + len(c.text) + 60]
    before = b.text[max(0, c.index - 30) : c.index]
    if b.table >= 0 and b.row > 0:
        header = ctx.doc.header_of(b)
        if header is not None and SCORING_HEADER.search(header.text):
            return True
    if POINTS_AFTER.match(after) or (AWARDS_BEFORE.search(before) and POINTS.search(b.words(c.sentence))):
        return True
    if c.value <= 1 and GRADE_BEFORE.search(before):
        return True  # "(score 0.4)": a grade of an objective, no result
    if c.suffix and WEIGHTS_LEAD.search(b.text[c.sentence.start : c.index]):
        return True  # "Scoring: 40% latency under load, 30% cost model, 30% write-up": weights
    return bool(c.suffix) and bool(BAND_AFTER.match(after)) and bool(POINTS.search(b.words(c.sentence)))


#: a grade on a scale to one: "(score 0.4)", "scored 0.8"
GRADE_BEFORE = re.compile(r"\b(?:score[sd]?|graded?|rating)\s{0,2}(?:of\s{1,2}|[:=]\s{0,2})?$", re.I)
#: a sentence that lists a scheme's weights: "Scoring: 40% latency, 30% cost", "weighted 60/40"
WEIGHTS_LEAD = re.compile(r"\b(?:scoring|weights?|weighting|weighted|criteria)\b\s{0,2}[:(]", re.I)
#: a column of a scoring scheme: "C3 points", "Grade", "Weight", "Marks"
SCORING_HEADER = re.compile(r"\b(?:points?|grades?|weights?|weighting|marks|rank(?:ing)?)\b", re.I)
#: "25 of the 100 points", "25 of 100"
POINTS_AFTER = re.compile(r"^\s{1,3}of\s{1,3}(?:the\s{1,3})?\d{1,4}\s{1,3}(?:points|marks)\b", re.I)
AWARDS_BEFORE = re.compile(r"\b(?:earns?|receives?|awarded|gets?|scores?|worth)\s{1,3}$", re.I)
POINTS = re.compile(r"\b(?:points?|marks|band|grade)\b", re.I)
#: a band's threshold: "within 5% of the best cited row earns 25"
BAND_AFTER = re.compile(r"^(?:[^.;]|\.(?=\d)){0,60}?\b(?:earns?|gets?|scores?|receives?)\b", re.I)


def _typed_verdict(ctx: Context, c: Claim) -> Issue | None:
    """What MLP019 says of a number typed in a template: a warning where the checker cannot tell
    a result from an assumption or the data verify it today, an error with the placeholder to
    use otherwise, nothing for a chip count a printed row has."""
    if c.unit == "pct" and not c.rows and _beside_results(ctx, c):
        return None  # "the 15% price cut": a price's
    if c.unit == "pct" and not _comparing(c) and ASSUMPTION.search(c.block.words(c.sentence)):
        return None  # "our plan assumes 40% headroom", "assumed 60% utilisation": an input, no result
    if c.unit == "pct" and not _comparing(c):  # "a price discount of 10% to 15%": an assumption
        return _warn(c, "no comparison of results", "print it with constant(value, why)")
    if QUESTION.search(c.block.words(c.sentence)):  # "So, is it 2.5×?": a claim under examination
        return _warn(c, "in a question", "print it with constant(value, why)")
    if _chip_count(c) or _row_label(c):  # the data give it (x.gpus); a wrong one is MLP025's
        counts = _printed_counts(ctx, c)
        if int(c.value) in counts:
            return None  # the count of a row its section prints: verified against the data
        if not c.rows and OURS.search(c.block.words(c.sentence)) and not _speaks_of_results(ctx, c):
            return (
                None  # "our halls hosted roughly 2,400 accelerators": the writer's fleet, no system's count
            )
        what = "a chip count no row printed in its section has" if counts else "a chip count"
        return _warn(c, what, "print it with x.gpus or gpus(...)")
    if c.kind in ("ratio", "pct") and _sides_printed(ctx, c):  # right today; will not follow the data
        return _warn(
            c,
            "the figures it compares give it today",
            "print it with ratio(a, b) or pct_change(a, b) of those figures, so that it follows the data",
        )
    if c.kind in ("ratio", "pct") and c.candidates:
        return at_claim(
            c,
            f"{c.text} is typed by hand, and {c.candidates[0]}",
            "print it with ratio(a, b) or pct_change(a, b) of the figures it compares",
        )
    if c.kind in ("ratio", "pct") and not c.rows and not c.candidates and not c.sides and not _comparing(c):
        # "a market that talks about 2x per year": no two results it could relate; the checker
        # cannot tell a claim about results from one about anything else
        return _warn(c, "it relates no results the checker can find", "print it with constant(value, why)")
    given = _placeholder_for(ctx, c)
    if given is None and not c.rows and c.unverified:
        # "reached an unverified 64,100 tokens per second": no data could print it; constant()
        # would only document it
        return _warn(
            c, "an unverified score, which no placeholder prints", "print it with constant(value, why)"
        )
    if given is None and not c.rows and _beside_results(ctx, c):
        return None  # "16 eight-GPU B300 servers", "$7.8M over FY2027": the writer's own subject
    if (
        given is None
        and not c.rows
        and not c.unit
        and not c.suffix
        and c.kind in ("number", "count")
        and not _near_printed(ctx, c)
    ):
        # a bare number no row gives ("raised from 16 to 32", "82 / 100"): the checker cannot
        # tell a result from a setting or a count, and says so without blocking the article
        return _warn(c, "no unit says it is a result", "print it with constant(value, why) if it is one")
    return at_claim(
        c,
        f"{c.text} is typed by hand" + (f" ({given[0]})" if given else ""),
        f"print it with {given[1]}"
        if given
        else "print it with a placeholder (result, per_gpu, power, ratio, ...) or constant(value, why)",
    )


def _near_printed(ctx: Context, c: Claim) -> bool:
    """Whether a typed number is within a tenth of a value a row printed in its section has (its
    result or per-GPU value): "a B200 about 11,300" beside a printed 11,276 is that result, rounded."""
    for r in _section_rows(ctx, c):
        for v in (r.result, r.per_accelerator):
            if v == v and v > 0 and abs(c.value / v - 1) <= 0.1:
                return True
    return False


def _speaks_of_results(ctx: Context, c: Claim) -> bool:
    """Whether *c*'s sentence names a benchmark, scenario or entry, or speaks of results."""
    m = ctx.mentions(c.block, c.sentence)
    return bool(m.benchmarks or m.scenarios or m.entries or RESULT_TALK.search(c.block.words(c.sentence)))


def _beside_results(ctx: Context, c: Claim) -> bool:
    """Whether a typed number no row gives is about something else than results: a count with no
    unit or an amount of money (not a price per token or hour), in a sentence that names no
    benchmark, scenario or entry and speaks of no result ("our 38 branch offices", "a capital
    outlay of $7.8M", "more than 300 visitors"); or a percentage of a price ("at a 15% lower list
    price")."""
    if _speaks_of_results(ctx, c):
        return False
    after = c.block.text[c.index + len(c.text) : c.index + len(c.text) + 40]
    if c.unit == "pct":
        return bool(PRICE_AFTER.match(after))
    return (c.unit == "" and not c.suffix) or (c.unit == "money" and not PER_AFTER.match(after))


#: the writer's own: "our halls", "we run"
OURS = re.compile(r"\b(?:our|we|us)\b", re.I)
#: a percentage the writer assumes: headroom, utilisation, a load factor
ASSUMPTION = re.compile(
    r"\b(?:assum\w*|headroom|utili[sz]ation|utili[sz]ed|occupancy|load factor|duty cycle|overhead|buffer)\b",
    re.I,
)
#: words of a sentence about results: a typed number there is one of them
RESULT_TALK = re.compile(
    r"\b(?:MLPerf|results?|scores?|throughput|tokens?|samples?|queries|inferences|latenc\w*|faster|slower|"
    r"ahead|behind|outperform\w*|speed-?ups?|entry|entries)\b|\bper[-\s](?:GPU|accelerator|chip)",
    re.I,
)
#: an amount in millions or billions: "$6 million", "$7.8M", "EUR 2bn"
MILLIONS = re.compile(r"(?:million|billion|mn|bn|[MB])$", re.I)
#: a percentage of a price: "15% lower list price", "a 10% discount", "20% cheaper"
PRICE_AFTER = re.compile(
    r"\s{0,2}(?:(?:lower|higher|cheaper|off|less|more)\s{1,2})?(?:(?:list|unit|purchase)\s{1,2})?"
    r"(?:price|pricing|cost|discount|TCO|capex|opex|cheaper)\b",
    re.I,
)
#: an amount per unit of work or time: a price a break-even computation would make
PER_AFTER = re.compile(
    r"\s{0,3}(?:per|/|an?|each)\s{1,3}(?:\w+\s{1,3}){0,2}?(?:tokens?|hours?|hr|queries|samples|month|year|GPU)",
    re.I,
)


def _warn(c: Claim, what: str, help: str) -> Issue:
    return replace(at_claim(c, f"{c.text} is typed by hand ({what})", help), undecided=True)


PER_EACH = re.compile(
    r"\bper[-\s]+(?:(?-i:[A-Z][\w.+-]*)\s+){0,3}(?:GPU|accelerator|chip|card)s?\b|/\s*(?:GPU|accelerator)\b|"
    r"\b(?:each|every|a single|one)\s+(?:\w+\s+){0,2}(?:GPU|accelerator|chip)s?\b",
    re.I,
)
#: a system's output: "the rack delivered", "HPE's XD690 posted", "processed"
TOTAL_VERB = re.compile(
    r"\b(?:delivered|delivers|posted|posts|achieved|achieves|processed|processes|produced|produces|generated|"
    r"generates|scored|scores|reached|reaches|served|serves|hit|hits|turned in|put up|clocked)\b[^.;:]{0,40}$",
    re.I,
)


def _headline_no_entry(ctx: Context) -> Iterator[Issue]:
    """A result typed in the title or description (no placeholder can print one there) that no
    entry of the article's rounds or footnotes gives."""
    for c, line, col in ctx.headline_claims:
        if c.rows or c.unit not in ("throughput", "per_gpu"):
            continue
        if bounded(c) and c.nearest == c.nearest and abs(c.nearest / c.value - 1) <= HEADLINE_BOUND:
            continue  # "tops 600,000 tokens per second" of the 603,023 the article cites: a threshold, rounded
        what = "per GPU" if c.unit == "per_gpu" else "system result"
        rounds = ", ".join("v" + r for r in ctx.article_rounds) or "loaded"
        near = f" (nearest: {c.candidates[0]})" if c.candidates and c.candidates[0] else ""
        yield Issue(
            f"the {c.block.kind}'s {c.text} ({what}): no {rounds} entry gives this{near}",
            line=line,
            col=col,
            help="correct the number, or leave it out of the headline",
        )


#: how far a headline's rounded threshold ("tops 600,000") may be from the value it rounds
HEADLINE_BOUND = 0.1


def _per_gpu_headline(ctx: Context, said: bool) -> Iterator[Issue]:
    """A per-GPU value typed in the title or description (which a listing or the feed shows
    alone) as a system's result, or while nothing in the article says per-GPU values are derived
    and the headline does not either."""
    article = ctx.rendered.article
    heads = f"{article.title}\n{article.meta.get('description') or ''}"
    for c, line, col in ctx.headline_claims:
        if c.kind != "per_gpu" or len(c.rows) != 1:
            continue
        r = c.rows[0]
        if c.unit == "throughput":
            what = f"is the per-GPU value of {label(r)}, not its system result ({r.result:,.0f})"
        elif not said and not LOCAL_DERIVED.search(heads):
            what = f"is a per-GPU value derived from the system result of {label(r)}"
        else:
            continue
        yield Issue(
            f"the {c.block.kind}'s {c.text} {what}; neither the {c.block.kind} nor the article says it is derived",
            line=line,
            col=col,
            help=SAY_DERIVED,
        )


def _per_gpu_printed_as_total(ctx: Context) -> Iterator[Issue]:
    """In a template, a ``per_gpu()`` value printed as what a system delivered ("the XD690
    delivered {{ per_gpu(...) }} tokens/s") with nothing that says it is per GPU: not its
    paragraph, not its table's header or caption. A reader takes it for the system's result."""
    for c in ctx.claims:
        if c.typed or c.kind != "per_gpu" or id(c.block) in ctx.note_blocks or c.block.generated:
            continue
        b = c.block
        if not TOTAL_VERB.search(b.text[c.sentence.start : c.index]):
            continue
        texts = [b.text]
        if b.table >= 0:
            texts += [
                x.text for x in surroundings(ctx, b) if x.table == b.table and x.col == b.col or x.table < 0
            ][:3]
        if any(PER_EACH.search(t) for t in texts):
            continue
        r = c.rows[0] if c.rows else None
        total = f" (the system result is {r.result:,.0f})" if r is not None else ""
        issue = at_claim(
            c,
            f"{c.text} is a per-GPU value printed as what a system delivered{total}; nothing beside it says per GPU",
            "say it is per GPU, and derived, or print the system result with result(...)",
        )
        # the last of parallel list items ("- ... delivers 14,211 tokens per second per GPU." then
        # "- ... delivers 13,906."), or a paragraph after one that gives its rate per GPU: a reader
        # carries the unit over; the editor decides; pointing back to it ("in the same field"), it
        # is that paragraph's unit
        before = previous(ctx, b) if b.kind == "paragraph" and b.table < 0 else None
        per_before = before is not None and before.kind == "paragraph" and bool(PER_EACH.search(before.text))
        if per_before and BACK_REFERENCE.search(b.words(c.sentence)):
            continue
        parallel = any(PER_EACH.search(x.text) for x in _earlier_items(ctx, b))
        around = [x for x in (ctx.doc.list_lead(b), ctx.doc.list_after(b)) if x is not None]
        if parallel and any(PER_EACH.search(x.text) for x in around):
            continue  # "- ... 14,211 tokens per second per GPU." "- ... delivers 13,906." "Per-GPU values are ..."
        yield replace(issue, undecided=True) if per_before or parallel else issue


def _earlier_items(ctx: Context, b: Block) -> list[Block]:
    """The items of *b*'s list before it (none when *b* is no list item)."""
    if b.kind != "item":
        return []
    out: list[Block] = []
    for x in reversed(ctx.doc.blocks[: ctx.doc.index(b)]):
        if x.kind != "item":
            break
        out.append(x)
    return out


#: a unit no result is given in: power, time, memory, money
OTHER_UNIT = re.compile(
    r"^\s*(?:[kMG]?W|watts?|kilowatts?|ms|milliseconds?|seconds?|s\b|[KMGT]i?B|GB/s|\$|USD|dollars?)\b", re.I
)


def _copied_constants(ctx: Context) -> Iterator[Issue]:
    """A ``constant()`` whose value is an official result or per-accelerator value of a round the
    article names: an official figure copied by hand, which will not follow a corrected file
    and which no footnote cites through its placeholder."""
    if ctx.matcher is None:
        return
    table = ctx.matcher.table
    rows = table.positions(round=ctx.article_rounds) if ctx.article_rounds else range(len(table))
    # of the benchmarks the article prints results of: an own run's 6,884 on Whisper is not a
    # copy of the 6,884 of a Llama 3.1 8B row
    benchmarks = {r.benchmark for x in ctx.claims if not x.typed for r in x.rows}
    if benchmarks:
        column = table.column("benchmark")
        rows = [p for p in rows if column[p] in benchmarks]
    results, per_gpu = table.column("result"), table.column("per_accelerator")
    for c in ctx.claims:
        if c.typed or c.kind != "constant" or abs(c.value) < 1000 or ctx.quoted(c.block, c.index):
            continue
        decimals = len(c.text.split(".")[1]) if "." in c.text else 0
        tol = 0.5 * 10 ** (-decimals)
        if WATTS_AFTER.match(c.block.text[c.index + len(c.text) :]):
            yield from _copied_power(ctx, c, rows, tol)
            continue
        if c.unit in ("ratio", "pct", "money") or OTHER_UNIT.match(c.block.text[c.index + len(c.text) :]):
            continue  # "1,024 ms", "$1,200": not a result, whatever value it shares with one
        # the first row, in table order, with either value within the tolerance (NaN never is)
        same = next(
            (p for p in rows if abs(results[p] - c.value) <= tol or abs(per_gpu[p] - c.value) <= tol), None
        )
        if same is not None:
            r = table.rows_at([same])[0]
            yield at_claim(
                c,
                f"{c.text} is typed into constant() but is the official {r.benchmark} {r.scenario} "
                f"value of entry {r.result_id}",
                "print it with result(...) or per_gpu(...), which cite the entry",
            )


WATTS_AFTER = re.compile(r"^\s*(?:W|watts?)\b", re.I)


def _copied_power(ctx: Context, c: Claim, rows: Sequence[int], tol: float) -> Iterator[Issue]:
    """A ``constant()`` in watts that is the measured power of a row of a round the article
    names: print it with ``power(...)``, which cites the entry (a configured power limit is
    not one: no row measured it)."""
    assert ctx.matcher is not None
    power = ctx.matcher.table.column("power")
    same = next((p for p in rows if abs(power[p] - c.value) <= tol), None)  # NaN never is
    if same is not None:
        r = ctx.matcher.table.rows_at([same])[0]
        yield at_claim(
            c,
            f"{c.text} is typed into constant() but is the measured power of entry {r.result_id} "
            f"{r.benchmark} {r.scenario}",
            f'print it with power("{r.result_id}", "{r.benchmark}", "{r.scenario}"), which cites the entry',
        )


#: a clause number at the start of a heading or paragraph: "## 4. Discussion", "4.1 The two ..."
CLAUSE = re.compile(r"^\s*(\d+(?:\.\d+)*)\.?\s")
#: 100% as the ideal a value is measured against ("near 100%", "100% scaling efficiency"), not
#: as a gain ("100% faster")
IDEAL = re.compile(
    r"^\s*(?!(?:faster|slower|higher|lower|more|less|better|worse|greater|ahead|behind|up|down)\b)", re.I
)


def _clause(text: str, clauses: set[str]) -> bool:
    """A report's clause, or a sibling of a dotted one ("in 3.3" beside a heading "3.4 —": a
    changelog's earlier version, a clause the excerpt does not show)."""
    return text in clauses or (
        "." in text and text.rsplit(".", 1)[0] in {x.rsplit(".", 1)[0] for x in clauses if "." in x}
    )


def _clause_numbers(ctx: Context) -> set[str]:
    """The numbers of a report's clauses ("4", "4.1"), which its text refers to ("in 3.1 and 3.2"):
    those that number a heading, and dotted ones that open a paragraph."""
    out = set()
    for b in ctx.doc.blocks:
        m = CLAUSE.match(b.text)
        if m and (b.kind == "heading" or (b.kind == "paragraph" and "." in m.group(1))):
            out.add(m.group(1))
    return out


#: a chip count: "72 GPUs", "1,024-accelerator", "16 GPUs (two nodes)"
COUNT_AFTER = re.compile(
    r"^(?:\s+|-)(?:[A-Z][\w-]*\s+){0,3}?(?i:GPUs?|accelerators?|chips?|nodes?|processors?|CPUs?|sockets?)\b"
)


def _label_count(c: Claim) -> bool:
    """A chip count in a heading or a table's header ("GB300 NVL72, Available, 72 GPUs"): a label
    naming the configuration a comparison must disclose (in prose, a count the data give is
    printed with a placeholder)."""
    return c.block.kind in ("heading", "header") and bool(
        COUNT_AFTER.match(c.block.text[c.index + len(c.text) :])
    )


#: a divisor that is a chip count: "divided by 72", "a division of the system results by 72"
DIVISOR_BEFORE = re.compile(
    r"\b(?:divid\w*|division)\b[^.\d]{0,60}?\s+by\s+(?:the\s+|its\s+|their\s+)?$|÷\s*$", re.I
)
#: an accuracy the official files give ("exact-match accuracy is 82.7", "a ROUGE-L of 24.3")
ACCURACY_BEFORE = re.compile(
    r"\b(?:accuracy|exact[- ]match|ROUGE[\w-]*|BLEU|WER|mAP|AUC|vbench)\b(?:[^.;]|\.\d){0,160}$", re.I
)


def _chip_count(c: Claim) -> bool:
    """A chip count ("72 GPUs", "the 288-GPU system", "divided by 72"): the configuration a
    comparison must name, which MLP025 checks against the row it describes."""
    if c.suffix or c.unit not in ("", "throughput") or not float(c.value).is_integer():
        return False
    text = c.block.text
    after = text[c.index + len(c.text) :]
    before = text[max(0, c.index - 90) : c.index]
    return bool(
        COUNT_AFTER.match(after)
        or COUNT_AFTER.match(RANGE_TO.sub("", after, count=1))  # "from 32 to 64 GPUs"
        or DIVISOR_BEFORE.search(before)
        or COUNTS_BEFORE.search(before)
    )


#: the first number of a pair or range of chip counts: "32 to 64 GPUs", "10 and 8 GPUs"
RANGE_TO = re.compile(r"^\s*(?:to|and|or|vs\.?|versus|[-–])\s*\d[\d,]*(?=[\s-])")
#: counts after the word: "different GPU counts (10 and 8)"
COUNTS_BEFORE = re.compile(
    r"\b(?:GPU|accelerator|chip|node)\s+counts?\s*(?:\(|of\s+|:\s*)(?:\d[\d,]*\s*(?:,|and|or|vs\.?|versus|against|to)\s*)*$",
    re.I,
)


#: an operand of a formula written in words: "price × 1,000,000", "× 3,600 × utilization"
FORMULA_BEFORE = re.compile(r"[A-Za-z)] {0,3}[×÷*/] {0,3}$")
FORMULA_AFTER = re.compile(r"^ {0,3}[×÷*/]? {0,3}(?!the\b|as\b|more\b|faster\b|higher\b|that\b|what\b)[a-z(]")


def _in_formula(c: Claim) -> bool:
    """A constant of a formula the text spells out, between an operator and a word: it converts
    units ("× 3,600" seconds an hour), no result is or could be printed there."""
    text = c.block.text
    before, after = (
        text[max(0, c.index - 30) : c.index],
        text[c.index + len(c.text) : c.index + len(c.text) + 30],
    )
    multiplies = c.suffix.strip() in ("×", "x") and FORMULA_AFTER.match(after) is not None
    return FORMULA_BEFORE.search(before) is not None and (
        multiplies or re.match(r"\s*[×÷*/]", after) is not None or not c.suffix
    )


def _sides_printed(ctx: Context, c: Claim) -> bool:
    """Whether a typed ratio or percentage is, within its printed precision, the relation of
    two figures its section's placeholders print ("{{ old }} ... to {{ new }}, a drop of about
    97%"): right when checked, but a rebuild on other data would not change it."""
    printed = {r.key for r in _section_rows(ctx, c)}
    return len({r.key for r in c.rows}) >= 2 and all(r.key in printed for r in c.rows)


def _printed_counts(ctx: Context, c: Claim) -> set[int]:
    """The chip counts of the rows printed in *c*'s section: totals, per node and nodes. A typed
    chip count among them ("288 GPUs, entry {{ big.entry }}", "Dividing by the 72 GPUs gives
    {{ x }}") is checked against the data as a placeholder's would be, on every rebuild."""
    counts: set[int] = set()
    for r in _section_rows(ctx, c):
        nodes = r.nodes if r.nodes and r.nodes > 0 else 1
        counts |= {r.gpus, nodes, r.gpus // nodes}
    return counts


def _placeholder_for(ctx: Context, c: Claim) -> tuple[str, str] | None:
    """(what the data say the number is, the placeholder that prints it) when a row printed in
    its section gives the typed value: its system result, per-GPU value or measured power."""
    if c.suffix:
        return None
    for r in _section_rows(ctx, c):
        args = f'"{r.result_id}", "{r.benchmark}", "{r.scenario}"'
        for name, value, what in (
            ("result", r.result, "the system result"),
            ("per_gpu", r.per_accelerator, "the per-GPU value"),
            ("power", r.power, "the measured power"),
        ):
            if value == value and abs(value - c.value) <= c.tol:
                return f"{what} of {label(r)}", f"{name}({args})"
    return None


def _section_rows(ctx: Context, c: Claim) -> Iterator[Row]:
    """The rows the placeholders of *c*'s section print, in order (typed numbers' matches left out)."""
    for b in section_of(ctx, c.block):
        for other in ctx.claims_in(b):
            if not other.typed:
                yield from other.rows


def _identifier_column(ctx: Context, b: Block) -> bool:
    """Whether a table cell's column numbers its rows: "Line", "#", "No.", "ID", "Item", "Rank"."""
    header = ctx.doc.header_of(b)
    return header is not None and bool(ID_HEADER.fullmatch(header.text.strip()))


#: the header of a column that numbers rows
ID_HEADER = re.compile(r"(?i:line|#|no\.?|nr\.?|number|id|item|step|pos(?:ition)?|rank|ref\.?|row)")


def _row_label(c: Claim) -> bool:
    """A whole number in a table's first column, which labels its row ("A (GB200, 288 vs 72)")."""
    b = c.block
    return (
        b.table >= 0
        and b.row > 0
        and b.col == 0
        and not c.suffix
        and not c.unit
        and float(c.value).is_integer()
    )


#: words that make a percentage a comparison of results ("12% faster", "ahead by 5%", "a gain of 9%")
PCT_COMPARE = re.compile(
    r"\b(?:faster|slower|higher|lower|more|less|ahead|behind|better|worse|above|below|gain\w*|"
    r"increas\w*|decreas\w*|improv\w*|drop\w*|fell|rose|ris\w*|grew|grow\w*|jump\w*|up|down|than|over|"
    r"lead\w*|trail\w*|advantage|edge|margin|gap|differ\w*|change\w*|efficien\w*|scal\w*|of (?:the|its) (?:best|top|leader))\b",
    re.I,
)


def _comparing(c: Claim) -> bool:
    """Whether the words around a typed percentage make it a comparison of results."""
    text = c.block.text
    around = text[max(c.sentence.start, c.index - 50) : c.index + len(c.text) + 40]
    of = re.match(r"\s*of\b", text[c.index + len(c.text) :])  # "70% of the Server figure": made from a result
    if not c.rows and EXPECTED.search(c.block.words(c.sentence)):
        return False  # "the 20–30% our literature review led us to expect": no result's
    return bool(PCT_COMPARE.search(around)) or bool(c.rows) or of is not None


#: the first number of a range of percentages: "20–30%", "20 to 30%"
PCT_RANGE = re.compile(r"^\s*(?:[-–—]|to)\s*\d[\d,.]*\s?(?:%|percent\b|×|x\b|times\b)")


def _power_setting(ctx: Context, c: Claim) -> bool:
    """A wattage stated as a configured limit ("GPU power limit stated in the notes | 1,200 W"):
    a setting from the submission's notes, which no placeholder prints."""
    if c.unit != "power":
        return False
    b = c.block
    text = (
        " ".join(x.text for x in ctx.doc.cells(b.table) if x.row == b.row)
        if b.table >= 0
        else b.words(c.sentence)
    )
    before, after = b.text[max(0, c.index - 40) : c.index], b.text[c.index + len(c.text) :][:40]
    return bool(
        SETTING.search(text) or RATING_BEFORE.search(before) or RATING_AFTER.match(after) or _from_rating(c)
    )


def _from_rating(c: Claim) -> bool:
    """A wattage that is a whole multiple of a rating stated before it in its paragraph ("the
    B300's 1,100 W board power, eight GPUs draw about 8,800 W"): made from the rating, which
    MLP011 reads, not a result."""
    kilo = 1000 if re.match(r"\s?kW\b", c.block.text[c.index + len(c.text) :]) else 1  # "an 8 kW budget"
    for m in RATING_VALUE.finditer(c.block.text, 0, c.index + len(c.text)):
        rating = float((m.group(1) or m.group(2)).replace(",", ""))
        k = (
            c.value * kilo / rating
            if rating and m.end() <= c.index + len(c.text) and m.start() != c.index
            else 0
        )
        if 2 <= k <= 1024 and abs(k - round(k)) < 1e-6:
            return True
    return False


#: a rating, which no result measures ("the GPU's 1,100 W TGP", "1,000 W TDP each", "rated at
#: 700 W", "a TDP of 1,000 W", "at their 1,000 W rating"): a product's specification, as "70B" is a model's; MLP011 reads
#: what is made of it
RATING = r"(?:TDP|TGP|TBP|thermal design power|nameplate(?: power)?|rated(?: power)?|(?:power )?rating|board power|PSU(?: rating)?)"
RATING_BEFORE = re.compile(rf"\b{RATING}\s*(?:of|at|is|=|:)?\s*$", re.I)
RATING_AFTER = re.compile(
    rf"^\s?k?W\s+(?:[\w-]+\s+)?{RATING}\b|"
    # "what a 1,100 W B300 gets you": the part's power class, before its name
    r"^\s?W\s+(?:NVIDIA\s+|AMD\s+|Intel\s+)?[A-Z]{1,3}\d{2,4}[A-Z]?\b(?!\s*(?:system|server|node)s?\b)",
    re.I,
)
#: a rating with its wattage: "1,100 W board power", "a TDP of 1,000 W"
RATING_VALUE = re.compile(
    rf"(?<![\d,.])(\d{{1,3}}(?:,\d{{3}})*(?:\.\d+)?)\s?W\s+(?:[\w-]+\s+)?{RATING}\b|"
    rf"\b{RATING}\s*(?:of|at|is|=|:)?\s*(\d{{1,3}}(?:,\d{{3}})*(?:\.\d+)?)\s?W\b",
    re.I,
)


def _accuracy(c: Claim) -> bool:
    """An accuracy figure of a submission, after the word that names it in its sentence."""
    s = c.sentence
    return not c.suffix and c.unit == "" and bool(ACCURACY_BEFORE.search(c.block.text[s.start : c.index]))


def _ideal(c: Claim) -> bool:
    return (
        c.value == 100
        and c.suffix.strip() in ("%", "percent")
        and bool(IDEAL.match(c.block.text[c.index + len(c.text) :]))
    )


def _allowed(ctx: Context, c: Claim) -> bool:
    """Patterns of the configuration (dates, versions, ...), and numbers inside or right after a
    benchmark's name ("Llama 2 70B", "Llama2-70b (99.9% accuracy)")."""
    text = c.block.text
    # "terms of 12 and 36 months": the first of a list whose last number carries the unit
    nxt = LIST_NEXT.match(text, c.index + len(c.text)) if not c.suffix else None
    spots = [c.index] + ([nxt.start(1)] if nxt else [])
    for pat in ctx.config.number_patterns:
        if any(m.start() <= i < m.end() for m in pat.finditer(text) for i in spots):
            return True
    for m, _ in ctx.vocab.names(text):
        if m.start() <= c.index < m.end():
            return True
        # right after the name only: a name later in the text says nothing about this number
        if m.end() <= c.index and re.fullmatch(r"[\s(\-]*(?:at\s+)?", text[m.end() : c.index]):
            return True
    return False


#: the numbers of a list after the first: ", 24 and 36", " or 48", " to 64"
LIST_NEXT = re.compile(r"(?:,\s{0,2}\d{1,6}){0,8},?\s{1,2}(?:and|or|to|-|–)\s{1,2}(\d{1,6})\b")


def _sides_known(ctx: Context, c: Claim) -> bool:
    """Whether the paragraph's rows are the ratio's sides: every submitter its sentence names is theirs."""
    rows = [r for x in (c.sides or ctx.claims_in(c.block)) if x is not c for r in x.rows]
    if len(rows) < 2 or ctx.matcher is None:
        return False
    named = ctx.submitter_words(c.block.words(c.sentence))
    return named <= ctx.submitter_words(" ".join(r.submitter.replace("_", " ") for r in rows))


@rule(
    "MLP029",
    "claim-matches-no-entry",
    family="numbers",
    severity="error",
    guideline="§10 Statements must be clear and correct",
    summary="A number presented as an MLPerf® result that no official entry gives.",
    bad="B300 reached 15,200 tokens/s per GPU on gpt-oss-120b Server in MLPerf® Inference v6.1.",
    good="B300 reached 14,211 tokens/s per GPU on gpt-oss-120b Server in MLPerf® Inference v6.1 (entry 6.1-0052).",
)
def matches_no_entry(ctx: Context) -> Iterator[Issue]:
    """Reports a number typed by hand with a results unit (tokens/s, samples/s, per GPU) that no
    official row of the rounds the article names, nor of the entries its footnotes cite, gives
    as a system result or per accelerator, within the precision printed; or a ratio or
    percentage between two cited rows that their values do not give. The message names the
    nearest official value, or what the two rows do give."""
    yield from _headline_no_entry(ctx)
    if ctx.matcher is None or ctx.template:
        return
    for c in ctx.claims:
        if c.rows:
            continue
        if (
            c.kind in ("ratio", "pct")
            and c.candidates
            and _sides_known(ctx, c)
            and not ctx.quoted(c.block, c.index)
        ):
            yield at_claim(
                c, f"{c.text}: {c.candidates[0]}", "recompute it from the official values of the two rows"
            )
        elif presented_as_result(ctx, c) and not bounded(c) and (mistyped(c) or attributed(ctx, c)):
            rounds = (
                ", ".join(
                    "v" + r for r in sorted(ctx.mentions(c.block, c.sentence).rounds or ctx.article_rounds)
                )
                or "loaded"
            )
            near = f" (nearest: {c.candidates[0]})" if c.candidates and c.candidates[0] else ""
            what = "per GPU" if c.unit == "per_gpu" else "system result"
            named = {r for r in rounds.replace("v", "").split(", ")}
            other = [e for e in c.cited if e.split("-")[0] not in named]
            also = f", nor does {', '.join(other)}, which its footnote cites" if other else ""
            yield at_claim(
                c,
                f"{c.text} ({what}): no {rounds} entry gives this{also}{near}",
                "correct the number, or cite the entry it comes from",
            )


#: how far from an official value a typed one may be and still read as a slip of it
SLIP = 0.02


def attributed(ctx: Context, c: Claim) -> bool:
    """Whether the number's sentence names an entry: the value is claimed as that entry's result
    (a wrong one is MLP029's however far it is from the right one)."""
    return bool(ctx.mentions(c.block, c.sentence).entries)


def mistyped(c: Claim) -> bool:
    """Whether a typed result that no entry gives reads as a typing slip of the nearest official
    value: within 2% of it, or whole parts one keystroke apart (a digit changed, two swapped, one
    added or dropped: "52,212.8" for 52,221.8). A number further from every entry is no official result at all:
    an unverified score presented as one (MLP033's), not a slip to correct."""
    if c.nearest != c.nearest:
        return True  # nothing to tell a slip from: the finding asks to correct it
    # the whole parts as printed: the typed number's, and the nearest value's in the message
    a, b = c.text.split(".")[0].replace(",", ""), fmt_value(c.nearest).split(".")[0].replace(",", "")
    if not (a.isdigit() and b.isdigit()):
        return True
    if int(b) and abs(c.value / int(b) - 1) <= SLIP:
        return True  # "15,200" for 15,186: close enough to be that value misread or rounded wrong
    if len(a) == len(b):
        return a == b or one_keystroke(a, b)
    short, long = sorted((a, b), key=len)
    return len(long) - len(short) == 1 and any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


@rule(
    "MLP030",
    "matched-entry-not-cited",
    family="numbers",
    severity="error",
    guideline="§2 Required Footnote",
    summary="A number that matches an official entry which no footnote cites.",
    bad="Nebius delivered 260,098 tokens/s.[1]  (note [1] lists another entry)",
    good="Nebius delivered 260,098 tokens/s.[1]  ([1] ... entry 6.1-0010 ...)",
)
def matched_not_cited(ctx: Context) -> Iterator[Issue]:
    """Reports a number typed by hand that is an official result (or per-accelerator value, or a
    ratio of two) of entries no footnote lists: the reader cannot trace it."""
    if ctx.matcher is None or ctx.template:
        return
    listed = ctx.notes.entries()
    for c in ctx.claims:
        if not c.typed or not c.rows or c.kind == "entry" or c.misattributed:
            continue  # a value its sentence credits to another entry is MLP021's
        missing = sorted({r.result_id for r in c.rows} - listed - {""})
        if missing:
            rows = [r for r in c.rows if r.result_id in missing]
            yield at_claim(
                c,
                f"{c.text} matches {', '.join(label(r) for r in rows[:2])}, which no footnote cites",
                f"list {', '.join(missing)} in {'the' if ctx.notes.notes else 'a'} footnote",
            )


@rule(
    "MLP031",
    "derived-value-undisclosed",
    family="numbers",
    severity="error",
    guideline="§9 Comparisons based on derived metrics must be explicit",
    summary="A per-accelerator value presented without saying it is derived.",
    bad="Each B300 delivers 14,211 tokens/s.  (the system delivered 113,690 with eight GPUs)",
    good="Each B300 delivers 14,211 tokens/s, a per-GPU value we derive from the system's 113,690.",
    scoped=(
        '| System | Tokens/s |\n|---|--:|\n| HPE XD690 | {{ per_gpu("6.1-0052", "gpt-oss-120b", "Server") }} |  (a \'delivered\' reading: no per GPU in header or caption)',
        '*Tokens per second per GPU, derived from each system result.*\n\n| System | Tokens/s per GPU |\n|---|--:|\n| HPE XD690 | {{ per_gpu("6.1-0052", "gpt-oss-120b", "Server") }} |',
    ),
)
def derived_undisclosed(ctx: Context) -> Iterator[Issue]:
    """Reports a number typed by hand that is a per-accelerator value (a system result divided by
    its accelerator count) presented as if it were the system's result: without "per GPU", a
    reader takes a derived value for an official one. (An article that never says per-GPU values
    are derived is MLP006's.)"""
    # an article that never says derived values are not official is MLP006's, not this rule's
    said = bool(PER_GPU_DERIVED.search(everything(ctx))) or not states_derived(ctx)
    yield from _per_gpu_headline(ctx, said)
    if ctx.template:
        yield from _per_gpu_printed_as_total(ctx)
        return
    if ctx.matcher is None:
        return
    told: set[tuple[int, int]] = set()
    for c in ctx.claims:
        if not c.typed or c.kind != "per_gpu" or len(c.rows) != 1 or ctx.quoted(c.block, c.index):
            continue
        r = c.rows[0]
        if c.unit == "throughput":
            yield at_claim(
                c,
                f"{c.text} is the per-GPU value of {label(r)}, not its system result ({r.result:,.0f}); a per-GPU value is derived: say so",
                "write it as a per-GPU value and say it is derived, or print the system result",
            )
        elif AS_RESULT.search(c.block.text[max(0, c.index - 40) : c.index]) and not LOCAL_DERIVED.search(
            c.block.words(c.sentence)
        ):
            yield at_claim(
                c,
                f"{c.text} is a per-GPU value derived from the system result of {label(r)}, presented as a result or score; a per-GPU value is derived: say so",
                SAY_DERIVED,
            )
        elif (
            not said
            and not LOCAL_DERIVED.search(c.block.words(c.sentence))
            and (id(c.block), c.block.table) not in told
        ):
            told.add((id(c.block), c.block.table))
            where = c.block
            if where.table >= 0:  # say it once, at the column that shows the values
                where = ctx.doc.header_of(c.block) or where
                yield Issue(
                    f"the column's per-GPU values ({c.text}, ...) are derived from system results; the article does not say so",
                    offset=where.offset(len(where.text) - len(where.text.lstrip())),
                    help=SAY_DERIVED,
                )
            else:
                yield at_claim(
                    c,
                    f"{c.text} is a per-GPU value derived from the system result of {label(r)}; the article does not say so",
                    SAY_DERIVED,
                )
