"""Superlatives (§5, §9, §10): "fastest", "the best", "#1", "record", "leads", "highest", "only" carry
their scope, and never rest on a derived metric presented as an official result.

A superlative about MLPerf® results names the round, scenario, category and chip count it
holds in. When its sentence names fewer, and the data show that it holds in every one of
the unnamed values too (the row really is the highest of its benchmark in every scenario,
category and size), it is true as stated and is not reported."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from generator.check.claims import Claim
from generator.check.context import Context
from generator.check.document import Block, Sentence
from generator.check.registry import Issue, rule
from generator.check.rules.common import at, claims_in
from generator.check.scope import Scope, article_lead, domain_end, domain_scope, scope_of
from generator.check.vocabulary import PER_ACCELERATOR, Mentions
from generator.data.row import Row

MAXIMUM = re.compile(
    r"\b(?:fastest|quickest|highest|top(?:-performing|-ranked|-scoring)?(?=\s+(?:\S+\s+){0,5}(?:score|result|spot|place|performer|system|throughput|number|figure|entry))|"
    # "tops the field", not the verb of a quantity: "tops five million tokens per second"
    r"(?:tops|topped|topping)(?!\s+(?:out\b|\$?\d|(?:[\w.]+[\s-]+){0,2}?(?:hundred|thousand|million|billion)\b))|"
    r"number[- ]one|record(?:-breaking|-setting)?|leads|leading|leader(?:ship)?|led\b|"
    r"best-in-class|unmatched|unrivall?ed|unbeaten|"
    # "sets new records", not the verb ("the file records no compatibility")
    r"(?:(?:sets?|setting|broke|breaks?|breaking)\s+(?:new\s+|\w+\s+)?|new\s+|world\s+|several\s+|many\s+)records|"
    # "the best platform", a claim; not "the best 8-GPU row" (which row a figure is: a selection)
    r"(?:the|its|their|our)\s+(?:very\s+)?best(?:\s+[\w-]+){0,2}?\s+(?:platform|system|solution|choice|option|"
    r"performer|performance|GPU|accelerator|chip|cloud|server|hardware|infrastructure|vendor|provider|"
    r"company|product|offering|machine)s?|"
    r"beats? (?:all|every)|outperform\w* (?:all|every|the entire)|world'?s (?:fastest|best|first))\b|#\s?1\b|\bNo\.\s?1\b",
    re.I,
)
UNIQUE = re.compile(
    r"\b(?:the only|sole|the first(?:-ever)?(?!\s+(?:two|three|four|five|six|seven|eight|nine|ten|few|several|\d+)\b)"
    # a place in the page, not a claim: "the first column", "the first row", "the first step"
    r"(?!\s+(?:column|row|table|section|paragraph|step|item|line|page|chart|figure|half|quarter|time)s?\b)"
    r"|first-ever|only (?:one|submitter|system|vendor|company|provider|cloud|entry|result|submission)s?)\b",
    re.I,
)
NOT_A_CLAIM = re.compile(
    r"\blead(?:s|ing)? (?:to|with)\b|\bleading edge\b|\bat the top\b|\bon top\b|"
    # a document: "this record does not treat ...", an architecture decision record
    r"\b(?:this|that|the present|our) record\b(?!\s+(?:score|result|throughput|performance|for|on|in)\b)|\bdecision record\b|"
    # a position in a ranking the text shows, not a claim to the top: "the next-highest", "the
    # second fastest", "the first three rows"
    r"\b(?:next|second|third|fourth|fifth)[- ](?:highest|fastest|best|quickest)\b|"
    r"\bthe first (?:two|three|four|five|six|\d+)\b|"
    # a list's length, not a claim to the top: "Top five by system total", "the top 10 rows"
    r"\btop[- ](?:two|three|four|five|six|seven|eight|nine|ten|twenty|\d+)\b|"
    # a reference point, not a claim: "within 5.4% of the highest score", "behind the fastest"
    r"\bwithin\s+\S+\s+(?:of|from)\s+the\s+(?:highest|fastest|best|top|leading|leader)\b|"
    r"\b(?:behind|below|short of|trail\w*)\s+the\s+(?:highest|fastest|best|top|leading|leader)\b|"
    # another's lead as a reference point: "the previous leader", "last round's record"
    r"\b(?:previous|former|prior|earlier|old|then|last (?:round|year)['’]s)[\s-]+(?:leader|record(?:-holder)?)\b|"
    # a range's ends, not a claim: "spread by 9% from lowest to highest", "sorted highest to lowest"
    r"\b(?:lowest|slowest|worst)\s+to\s+(?:the\s+)?(?:highest|fastest|best)\b|"
    r"\b(?:highest|fastest|best)\s+to\s+(?:the\s+)?(?:lowest|slowest|worst)\b|"
    # idioms: "setting the record straight", "for the record"
    r"\bthe\s+record\s+straight\b|\b(?:for|on|off)\s+the\s+record\b|"
    # the verb: "why we waited two weeks to record", "we record every run"
    r"\b(?:to|we|they|I|you|and)\s+record\b",
    re.I,
)
#: money, not results: "the highest hourly premium worth paying", "the lowest price"
MONEY_SUPERLATIVE = re.compile(
    r"(?:highest|lowest|best)\s+(?:[\w-]+\s+)?(?:premium|price|cost|discount|budget|bid|fee|rent)s?\b", re.I
)


#: a superlative over every product on sale, which no scope of results can support: "the fastest
#: GPU money can buy", "the best accelerator on the market", "in the industry"
MARKET_WIDE = re.compile(
    r"\b(?:money can buy|on the (?:market|planet)|"
    # "the fastest accelerator you can buy"; not "among the systems you can buy" (the Available ones)
    r"(?<!among the )(?<!among )(?:accelerator|GPU|chip|card|system|server|platform|instance)s?\s+(?:that\s+)?"
    r"(?:you|one|anyone|buyers?|customers?) can (?:buy|rent|get|order)|"
    r"in the (?:industry|market|world)|"
    r"anywhere|bar none|full stop|of any vendor|from any vendor|"
    # a class of workloads instead of the benchmark: "the fastest accelerator ... for small language models"
    r"for (?:all |any |every )?(?:small |large |open )?(?:language models|LLMs|AI(?: inference| workloads)?|"
    r"generative AI|reasoning models|chatbots|recommenders|recommendation workloads|inference workloads))\b",
    re.I,
)
#: a question asks, it claims nothing: "Which small box runs a 27B model fastest?"
QUESTION = re.compile(r"\?[\"”’)\]*_]*\s*$")
OFFICIAL_FRAME = re.compile(
    r"\brecord\b|\bscore\b|\bofficial\b|\bverified\b|\bwin(?:s|ner)?\b|\btitle\b|MLPerf®?\s+(?:\S+\s+){0,4}(?:results?|winner|leader)\b",
    re.I,
)
#: "in the MLPerf® Inference Closed Datacenter results": where the values come from, not what
#: the derived value is called
SOURCE_BEFORE = re.compile(
    r"\b(?:in|from|across|among|of|on|within|using)\s+(?:the\s+|its\s+|their\s+)?(?:official\s+)?$", re.I
)


def _framed_official(text: str) -> bool:
    """The sentence calls a value an official record, score or MLPerf® result (naming the
    results a value was taken from is not that)."""
    return any(not _source(text, m) for m in OFFICIAL_FRAME.finditer(text))


def _source(text: str, m: re.Match[str]) -> bool:
    """ "(an analysis) of the official MLPerf® Inference results", "in the MLPerf® results": the
    results named as a source."""
    word = m.group(0)
    named = word.startswith("MLPerf") or (
        word.lower() == "official" and re.match(r"\s+MLPerf", text[m.end() :]) is not None
    )
    return named and SOURCE_BEFORE.search(text[max(0, m.start() - 16) : m.start()]) is not None


DERIVED_SAID = re.compile(
    r"\bderived\b|\bnot (?:an? )?official\b|\bour (?:own )?(?:calculation|division|computation)\b|\bwe (?:derive|compute)",
    re.I,
)
ANY_SIZE = re.compile(
    r"\b(?:any|every|all)\s+(?:GPU|accelerator|chip|system)\s+(?:count|size|sizes|counts)\b|\bwhatever (?:its|their) (?:GPU|accelerator|chip) count\b|\bof any size\b|\bat any scale\b",
    re.I,
)
#: a set the lead paragraph ranges over ("among the eight-GPU systems", "of all ... entries")
AMONG = re.compile(r"\b(?:among|of all|out of (?:the|all)|across (?:all|every))\b", re.I)
#: a quotation in a title: “...”, "...", or '...' set off by spaces
QUOTED_WORDS = re.compile(r"“[^”]*”|\"[^\"\n]*\"|‘[^’]*’|(?<!\w)'[^'\n]+'(?!\w)")
ANY_CATEGORY = re.compile(r"\b(?:any|every|all) (?:categor(?:y|ies))\b|\bin every category\b", re.I)


def _about_results(ctx: Context, b: Block, s: Sentence) -> bool:
    m = ctx.mentions(b, s)
    text = b.words(s)
    return bool(
        m.benchmarks or m.entries or "MLPerf" in text or claims_in(ctx, b, s) or RESULT_BACK.search(text)
    )


#: a sentence about results printed just before it: "With that result, ...", "these results show"
RESULT_BACK = re.compile(
    r"\b(?:th(?:at|is|ese|ose)|the same)\s+(?:results?|scores?|figures?|numbers?|rows?)\b", re.I
)


#: a superlative's noun that makes it a per-accelerator claim: "the fastest GPU", "the best B300 accelerator"
GPU_NOUN_AFTER = re.compile(r"\s{0,3}(?:[\w®.-]{1,40}\s{1,3}){0,3}?(?:GPU|accelerator|chip)s?\b")


def _scope_missing(ctx: Context, b: Block, s: Sentence, scope: Scope, subject: Claim | None) -> list[str]:
    """What of round, scenario, category and chip count neither the sentence's effective scope
    (:mod:`generator.check.scope`) states nor the data settle (every row of the stated set
    shares it: a set of 8-GPU systems only needs no chip count)."""
    m = scope.mentions
    text = b.words(s)
    missing = []
    # "the highest per-GPU result in each round": one superlative per round, each round its scope
    if not m.rounds and not re.search(
        r"\bthis round\b|\b(?:in|of|for)\s+(?:each|every)\s+round\b|\bper\s+round\b", text, re.I
    ):
        missing.append("round")
    if not m.scenarios:
        missing.append("scenario")
    if not m.categories and not ANY_CATEGORY.search(text):
        missing.append("category")
    if not m.strict_chips and not ANY_SIZE.search(text) and not re.search(PER_ACCELERATOR, text, re.I):
        missing.append("chip count")
    if not missing or ctx.matcher is None or not (subject or m.benchmarks):
        return missing
    sel = _selection(ctx, m, subject)
    uniform = {
        "scenario": _distinct(ctx, sel, "scenario") == 1,
        "category": _distinct(ctx, sel, "category") == 1,
        "chip count": _distinct(ctx, sel, "total_accelerators") == 1,
        "round": _distinct(ctx, sel, "round") == 1 and bool(m.rounds or subject),
    }
    return [x for x in missing if not sel or not uniform[x]]


def _distinct(ctx: Context, sel: list[int], name: str) -> int:
    """How many values field *name* takes in the rows at *sel*, a missing one (NaN) not counted."""
    assert ctx.matcher is not None
    col = ctx.matcher.table.column(name)
    return len({v for p in sel if (v := col[p]) == v and v is not None})


def _selection(ctx: Context, m: Mentions, c: Claim | None) -> list[int]:
    """The positions of the official rows a superlative ranges over (in table order): its
    subject's benchmark, division and units (or the benchmarks its scope names), within every
    part of the effective scope."""
    assert ctx.matcher is not None
    r = c.rows[0] if c is not None and c.rows else None
    within: dict[str, Iterable[object]] = {"benchmark": {r.benchmark} if r is not None else m.benchmarks}
    if r is not None:
        within.update(division=m.divisions or {r.division}, units={r.units}, round=m.rounds or {r.round})
    elif m.rounds:
        within["round"] = m.rounds
    for attr, col in (("scenarios", "scenario"), ("categories", "category"), ("divisions", "division")):
        if getattr(m, attr):
            within[col] = getattr(m, attr)
    if m.strict_chips:
        within["total_accelerators"] = m.strict_chips
    if r is not None and r.family in m.families:  # "the best B200 system": B200 rows only
        within["family"] = {r.family}
    elif r is None and m.families:
        within["family"] = m.families
    return ctx.matcher.table.positions(**within)


#: what a compared side follows: "ahead of Oracle's 666,613", "leads the next-highest, ... 131,619"
OBJECT_BEFORE = re.compile(
    r"\b(?:ahead of|than|over|against|beat\w*|leads?|led|outpac\w*|tops?|topped|behind|versus|vs\.?|next-highest)\b(?:[^.;]|\.(?=\d)){0,80}$",
    re.I,
)


REFERENCE_BEFORE = re.compile(
    r"\b(?:ahead of|than|against|over|versus|vs\.?|behind|trails?|trailing)\s+(?:\w+'s\s+)?$", re.I
)
#: another's lead as the point a value is set against: "above the September 2025 leader"
LEAD_REFERENCE = re.compile(
    r"\b(?:ahead of|than|against|over|above|below|past|versus|behind)\s+the\s+(?:[\w'’-]+\s+){0,3}$", re.I
)


def _appositive(ctx: Context, b: Block, s: Sentence, end: int) -> Claim | None:
    """The single-row result printed right after a superlative ("posted the highest result,
    679,740 tokens per second"): what the superlative is said of, beyond doubt."""
    for c in claims_in(ctx, b, s):
        if c.index >= end and c.index - end <= 40 and len(c.rows) == 1 and c.kind in ("result", "per_gpu"):
            return None if OBJECT_BEFORE.search(b.text[end : c.index]) else c
    if THAT_IS.match(b.words(s)):  # "**9,311** samples/s per GPU. That is the highest ...": the value before
        k = b.sentences.index(s) if s in b.sentences else 0
        before = (
            [c for c in claims_in(ctx, b, b.sentences[k - 1]) if c.kind in ("result", "per_gpu")] if k else []
        )
        if len(before) == 1 and len(before[0].rows) == 1:
            return before[0]
    return None


#: a sentence that says what the value just printed is: "That is the highest ...", "This is"
THAT_IS = re.compile(r"^\W{0,8}(?:That|This|It)(?:\s+is|['’]s)\b")


def _subject(ctx: Context, b: Block, s: Sentence, *, own: bool = False) -> Claim | None:
    """The single-row claim a superlative is about: in its sentence (not a side it is set
    against: "ahead of Oracle's 666,613"), else (unless *own*) its paragraph."""
    pools = [claims_in(ctx, b, s)] + ([] if own else [claims_in(ctx, b)])
    for pool in pools:
        rows = [
            c
            for c in pool
            if len(c.rows) == 1
            and c.kind in ("result", "per_gpu")
            and not OBJECT_BEFORE.search(b.text[max(s.start, c.index - 90) : c.index])
        ]
        if rows:
            return rows[0]
    return None


def holds(ctx: Context, c: Claim, m: Mentions) -> Row | None:
    """None when the claim's row is the best of its benchmark within the effective scope *m*;
    else a row of that scope that beats it (never one outside it, never the row itself)."""
    if ctx.matcher is None:
        return None
    r = c.rows[0]
    col = "per_accelerator" if c.kind == "per_gpu" else "result"
    table = ctx.matcher.table
    ids, values = table.column("result_id"), table.column(col)
    # the other rows with a value (a missing one, NaN, ranks last and beats nothing)
    sel = [p for p in _selection(ctx, m, c) if ids[p] != r.result_id and values[p] == values[p]]
    if not sel:
        return None
    lower = not r.higher_is_better
    top = (min if lower else max)(sel, key=values.__getitem__)  # the first of equal values
    mine = getattr(r, col)
    better = values[top] < mine if lower else values[top] > mine
    return table.rows_at([top])[0] if better else None


@rule(
    "MLP026",
    "superlative-without-scope",
    family="superlatives",
    severity="error",
    guideline="§5 Identify submission differences, §10 Statements must be clear and correct",
    summary='A superlative ("fastest", "the best", "#1", "record", "leads", "highest", "only") without its round, scenario, category and chip count.',
    bad="Nebius runs the fastest DeepSeek-R1 rack in the industry.",
    good="Nebius's 72-GPU rack posted the highest DeepSeek-R1 Server result among Available systems of MLPerf® Inference v6.1.",
    scoped=(
        "## MLPerf® Inference v6.1, gpt-oss-120b Server\n\nCoreWeave's B300 instance posted the highest result.  (16-GPU B300 rows are higher)",
        "## MLPerf® Inference v6.1, gpt-oss-120b Server, eight-GPU Available systems\n\nHPE's XD690 posted the highest result.",
    ),
)
def superlative_without_scope(ctx: Context) -> Iterator[Issue]:
    """Reports a superlative about MLPerf® results whose sentence does not name the scope it
    holds in: round, scenario, category and chip count ("per GPU" or "of any size" answer the
    last). Uniqueness words ("the only", "the first") need the round. When the data show the
    claim holds across every unnamed value, it is not reported. A superlative over every product
    ("the fastest GPU money can buy", "in the industry", "for small language models") is
    reported whatever scope it inherits: no set of results supports it. A question ("Which box
    runs it fastest?") and an idiom ("setting the record straight") claim nothing."""
    yield from _title_superlative(ctx)
    for b in ctx.prose():
        for s in b.sentences:
            text = b.words(s)
            if not _about_results(ctx, b, s) and not re.search(r"\bunverified\b", text, re.I):
                yield from _market_wide_hardware(ctx, b, s)  # "the fastest accelerator money can buy"
                continue
            # a quotation is someone else's claim, unless it makes a claim for an unverified run:
            # printing it publishes a record no MLCommons review stands behind
            own_unverified = bool(re.search(r"\bunverified\b", text, re.I))
            if QUESTION.search(text):
                continue
            for m in MAXIMUM.finditer(text):
                if (
                    NOT_A_CLAIM.search(text[max(0, m.start() - 24) : m.end() + 12])
                    # "ahead of the best B200 system": a reference to a row, the claim is the other side's
                    or REFERENCE_BEFORE.search(text[max(0, m.start() - 24) : m.start()])
                    or MONEY_SUPERLATIVE.match(text, m.start())
                    or m.group(0).lower().startswith(("leader", "record"))
                    and LEAD_REFERENCE.search(text[max(0, m.start() - 60) : m.start()])
                    or (ctx.quoted(b, s.start + m.start()) and not own_unverified)
                    or ctx.printed(b, s.start + m.start())  # "Fastest" in a system's name is data
                ):
                    continue
                issue = _superlative_issue(ctx, b, s, m, own_unverified)
                if issue is not None:
                    yield issue
                break
            yield from _unique_without_round(ctx, b, s)


#: what a hardware superlative is about: "the fastest inference accelerator money can buy"
HARDWARE = re.compile(
    r"\b(?:accelerators?|GPUs?|chips?|systems?|servers?|platforms?|boxe?s?|racks?|nodes?|hardware)\b", re.I
)


def _market_wide_hardware(ctx: Context, b: Block, s: Sentence) -> Iterator[Issue]:
    """A superlative over every product of a kind, in an article that cites results, where its
    sentence names none: the article's results are what it rests on, and none supports it."""
    if not any(c.rows for c in ctx.claims):
        return
    text = b.words(s)
    for m in MAXIMUM.finditer(text):
        # the noun may be the superlative's own ("the best speech-recognition hardware money can buy")
        if HARDWARE.search(text, m.start(), m.end() + 40) and MARKET_WIDE.search(text, m.end(), m.end() + 90):
            if not (ctx.quoted(b, s.start + m.start()) or ctx.printed(b, s.start + m.start())):
                issue = _superlative_issue(ctx, b, s, m, False)
                if issue is not None:
                    yield issue
            return


def _superlative_issue(
    ctx: Context, b: Block, s: Sentence, m: re.Match[str], own_unverified: bool
) -> Issue | None:
    """What is wrong with the superlative *m* of sentence *s*, if anything: a claim over every
    product, one for an unverified run, one the data contradict in its own scope, or one
    without its scope."""
    text = b.words(s)
    wide = MARKET_WIDE.search(text, max(0, m.start() - 40), m.end() + 90)
    if wide:
        return at(
            b,
            s.start + m.start(),
            f'"{m.group(0)}" {wide.group(0)}: a claim about every product, wider than any set of '
            "MLPerf® results can support",
            "state the superlative over the results it holds for: round, scenario, category and chip count",
        )
    subject = _subject(ctx, b, s)
    end = domain_end(text, m.start(), m.end())  # "the fastest GPU in v6.1", "the round's highest"
    scope = domain_scope(ctx, b, s, text[m.start() : end]) if end >= 0 else scope_of(ctx, b, s)
    missing = _scope_missing(ctx, b, s, scope, subject)
    beaten = holds(ctx, subject, scope.mentions) if subject else None
    if own_unverified and subject is None and not missing:
        return at(
            b,
            s.start + m.start(),
            f'"{m.group(0)}" is claimed for an unverified run, which no official result stands behind',
            "compare the unverified run with verified results without a superlative",
        )
    own = _appositive(ctx, b, s, s.start + m.end())
    if end >= 0 and own is None and subject is not None:
        # "making B300 the fastest GPU in MLPerf® Inference v6.1": a claim for the row the sentence
        # printed, over the round it names; "GPU" makes it a per-GPU claim
        per = [c for c in claims_in(ctx, b, s) if c.kind == "per_gpu" and c.rows == subject.rows[:1]]
        own = per[0] if per and GPU_NOUN_AFTER.match(text, m.end()) else subject
        beaten = holds(ctx, own, scope.mentions)
    if (
        not missing
        and own is not None
        and (beaten := beaten if own is subject else holds(ctx, own, scope.mentions)) is not None
    ):
        return at(
            b,
            s.start + m.start(),
            f'"{m.group(0)}" is contradicted within its own scope: {beaten.result_id} '
            f"({beaten.submitter}, {beaten.gpus} GPUs) is higher than {own.text}"
            + (f" (scope read: {scope.sources()})" if scope.sources() else ""),
            "drop the superlative, or narrow the set it is stated for",
        )
    if missing and (subject is None or beaten is not None):
        extra = (
            f"; {beaten.result_id} {beaten.scenario} ({beaten.gpus} GPUs, {beaten.category}) is higher"
            if beaten
            else ""
        )
        inherited = scope.sources()
        return at(
            b,
            s.start + m.start(),
            f'"{m.group(0)}" without its {", ".join(missing)}{extra}'
            + (f" (scope read: {inherited})" if inherited else ""),
            "say where it holds: round, scenario, category and chip count",
        )
    return None


def _unique_without_round(ctx: Context, b: Block, s: Sentence) -> Iterator[Issue]:
    """A uniqueness word ("the only", "the first") about results, with no round in its scope."""
    u = UNIQUE.search(b.words(s))
    if (
        u
        and not scope_of(ctx, b, s).mentions.rounds
        and not ctx.quoted(b, s.start + u.start())
        and not ctx.printed(b, s.start + u.start())
        and _about_results(ctx, b, s)
    ):
        yield at(
            b,
            s.start + u.start(),
            f'"{u.group(0)}" without the round it holds in',
            'name the round, e.g. "in MLPerf® Inference v6.1"',
        )


def _ranked_tables(ctx: Context) -> Iterator[Issue]:
    """A table whose header frames a ranking of derived values as an MLPerf® rank."""
    tables = {b.table for b in ctx.prose() if b.table >= 0}
    for n in sorted(tables):
        cells = [b for b in ctx.doc.blocks if b.table == n]
        header = " ".join(b.text for b in cells if b.row == 0)
        if not re.search(r"MLPerf®?[^|]*\brank", header, re.I):
            continue
        derived = [
            c
            for c in ctx.claims
            if c.block.table == n and (c.kind == "per_gpu" or c.unit == "per_gpu" or c.derived)
        ]
        first = next(
            (b for b in cells if b.row > 0 and re.search(r"#\s?1\b|\b1st\b|^\s*1\s*$", b.text)), None
        )
        if derived and first is not None:
            yield at(
                first,
                len(first.text) - len(first.text.lstrip()),
                f"the table ranks {derived[0].text} and other derived values as an MLPerf® rank",
                "call it a ranking by a derived metric, not an MLPerf® rank",
            )


def _title_superlative(ctx: Context) -> Iterator[Issue]:
    """A headline is a claim too: "X tops the field" needs its scope in the title itself."""
    title = str(ctx.rendered.article.meta.get("title", ""))
    m = MAXIMUM.search(title) or UNIQUE.search(title)
    if not m or NOT_A_CLAIM.search(title[max(0, m.start() - 8) : m.end() + 12]):
        return
    if any(q.start() < m.start() < q.end() for q in QUOTED_WORDS.finditer(title)):
        return  # 'Is the B300 the "fastest"?': the word is quoted, not claimed
    if QUESTION.search(re.split(r"(?<=[.:;!?])\s", title[m.start() :])[0]):
        return  # "Which small box runs a 27B model fastest?": a question claims nothing
    # a headline is read with its description under it (a listing, a feed) or with the lead
    # paragraph under it (the page); the lead completes the headline's scope when it restates the
    # claim over a set ("the highest ... among ..."), not when it only describes the subject
    article = ctx.rendered.article
    texts = [title, str(article.meta.get("description", ""))]
    lead = article_lead(ctx)
    restates = lead is not None and bool(
        MAXIMUM.search(lead.text) or UNIQUE.search(lead.text) or AMONG.search(lead.text)
    )
    missing = _headline_missing(ctx, texts + [lead.text] if lead is not None and restates else texts)
    # a headline that states its scope but for one part, which the lead gives while describing
    # the headline's subject ("In v5.1, Closed, Server, Available category, the Broadcom system
    # ..."), may be read with it: undecided (a headline that states none of it is an error)
    undecided = (
        len(missing) == 1
        and lead is not None
        and not restates
        and not _headline_missing(ctx, texts + [lead.text])
    )
    if missing:
        line = ctx.rendered.article.meta_lines.get("title", 1)
        src = ctx.rendered.article.path.read_text("utf-8").splitlines()[line - 1]
        start = src.find(title[:20])
        where = (
            "only the lead paragraph, describing its subject, names it"
            if undecided
            else "neither the title, the description nor the lead paragraph names it"
        )
        yield Issue(
            f'"{m.group(0)}" in the title without its {", ".join(missing)} ({where})',
            line=line,
            col=(start + m.start() + 1) if start >= 0 else 1,
            help="say in the title where it holds, or drop the superlative",
            undecided=undecided,
        )


def _headline_missing(ctx: Context, texts: list[str]) -> list[str]:
    """What of round, scenario, category and chip count none of *texts* names."""
    named = [ctx.vocab.read(t) for t in texts if t]
    rounds = len(ctx.rendered.article.rounds) == 1 or any(n.rounds for n in named)
    chips = any(n.strict_chips for n in named) or any(re.search(PER_ACCELERATOR, t, re.I) for t in texts)
    return [
        what
        for what, ok in (
            ("round", rounds),
            ("scenario", any(n.scenarios for n in named)),
            ("category", any(n.categories for n in named)),
            ("chip count", chips),
        )
        if not ok
    ]


@rule(
    "MLP027",
    "superlative-on-derived-metric",
    family="superlatives",
    severity="error",
    guideline="§9 Derived metrics must not be presented as official",
    summary="A superlative resting on a derived metric presented as an official MLPerf® result, score or record.",
    bad="B300 holds the top MLPerf® Inference v6.1 score: 14,211 tokens/s per GPU.",
    good="B300 has the highest per-GPU value we derive from the MLPerf® Inference v6.1 results: 14,211 tokens/s per GPU.",
    scoped=(
        "## MLPerf® Inference v6.1 per-GPU values\n\nThe B300 row holds the top score: 14,211 tokens/s per GPU.",
        "## MLPerf® Inference v6.1 per-GPU values (derived)\n\nThe B300 row has the highest per-GPU value we derive: 14,211 tokens/s per GPU.",
    ),
)
def superlative_on_derived(ctx: Context) -> Iterator[Issue]:
    """Reports a superlative whose value is derived (per GPU, a ratio) but which the sentence
    frames as an official MLPerf® record, score or result. Ranking by a derived metric is
    allowed only when the sentence says the metric is derived."""
    yield from _ranked_tables(ctx)
    for b in ctx.prose():
        if b.table >= 0:
            continue
        for s in b.sentences:
            text = b.words(s)
            m = next(
                (
                    m
                    for m in MAXIMUM.finditer(text)
                    if not ctx.printed(b, s.start + m.start())
                    and not NOT_A_CLAIM.search(text[max(0, m.start() - 24) : m.end() + 12])
                ),
                None,
            )
            if not m or not _framed_official(text) or DERIVED_SAID.search(text):
                continue
            derived = [
                c for c in claims_in(ctx, b, s) if c.derived or c.kind == "per_gpu" or c.unit == "per_gpu"
            ]
            if derived:
                yield at(
                    b,
                    s.start + m.start(),
                    f'"{m.group(0)}" presents {derived[0].text}, a derived value, as an official MLPerf® result',
                    "say the ranking is by a derived metric, and that it is not an official MLPerf® result",
                )
