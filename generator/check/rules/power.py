"""Power (§6): only measured MLPerf® system power may portray or normalize results."""

from __future__ import annotations

import re
from collections.abc import Iterator

from generator.check.claims import Claim
from generator.check.context import Context
from generator.check.document import Block
from generator.check.registry import Issue, rule
from generator.check.rules.common import at, claims_in, label, section_of
from generator.data.row import Row

# the leading lookahead (each alternative's first character) rejects most positions at once
POWER = re.compile(
    r"(?=[ptisqjer/\d])(?:\bper[- ](?:watt|joule|kW|kilowatt|W)\b|/\s?(?:W|kW|J)\b|\bperf(?:ormance)?[- /]per[- ]watt\b|\bperf/W\b|"
    r"\b(?:tokens?|inferences?|samples?|queries)\s*(?:/|per)\s*(?:J|joule|watt|W|kWh)\b|\bjoules?\b|"
    r"\benergy[- ]efficien\w*|\bpower[- ]efficien\w*|\befficiency per watt\b|\bTDP\b|\bTGP\b|\bTBP\b|"
    # a bounded number ("1,100 W", "14.5 kW", "120,000.5 W"): an unbounded [\d,.]* before the unit
    # made a long run of digits and commas quadratic
    r"\b\d{1,3}(?:[,.]\d{1,3}){0,4}\s?(?:kW|MW|W|watts?|kilowatts?|megawatts?)\b|\brated power\b|\bPSU\b)",
    re.I,
)
#: a proxy denied before it: "rather than from a GPU's rated power", "no TDP enters any figure"
DENIED = re.compile(
    r"\b(?:rather than|instead of|not|no|never|without|nor|neither|nobody|no one|n't|avoid\w*|refus\w*)"
    r"(?:\b|(?<=n't))[^.;]{0,50}$",
    re.I,
)
#: a comparison by energy efficiency: "the more energy-efficient choice", "the most power-efficient"
EFFICIENCY_CLAIM = re.compile(
    r"\b(?:more|most|less|least|better|best|higher|lower|greater|superior)\s{1,3}(?:energy|power)[- ]efficien",
    re.I,
)
#: a configured power limit ("GPU power limit stated in the notes | 1,200 W"): a setting of the
#: system, not a metric of its result
SETTING = re.compile(
    r"\b(?:power|TDP|TGP)[\s-]+(?:limit|cap|setting)s?\b|\b(?:capped|limited|configured|set)\s+(?:at|to)\b|"
    # a facility's rack class, which no result measures: "we assume 40 kW racks", "racks of 120 kW"
    r"\d\s?kW\s+(?:racks?|cabinets?|halls?|rows?)\b|\b(?:racks?|cabinets?)\s+(?:of|at)\s+\d[\d,.]{0,8}\s?kW\b|"
    r"\brack (?:density|power budget)\b|"
    # a configured cap: "a 1,000 W accelerator cap", "the 700 W power limit"
    r"\d\s?k?W\s+(?:[\w-]+\s+){0,2}?(?:cap|limit|ceiling)\b",
    re.I,
)
#: a configuration named by its rating, as the official notes name it ("B200 TGP 1000W
#: configuration", 'the "TGP 1000W" label above names the GPU configuration'): no power claim
CONFIG_LABEL = re.compile(
    r"\b(?:TDP|TGP|TBP)\s?\d[\d,.]*\s?W\b[\s\"”'’]*(?:\w+\s+){0,5}?(?:configuration|variant|SKU|mode|setting)s?\b",
    re.I,
)
BARE_WATTS = re.compile(r"^\d[\d,.]*\s?(?:kW|MW|W|watts?|kilowatts?|megawatts?)$", re.I)
PROXY = re.compile(
    r"\bTDP\b|\bTGP\b|\bTBP\b|\brated power\b|\bboard power\b|\bPSU\b|\bnominal\b|\bnameplate\b", re.I
)


@rule(
    "MLP011",
    "power-without-measurement",
    family="power",
    severity="error",
    guideline="§6 Official power metrics",
    summary="A power claim (per watt, per joule, energy-efficient, kW, TDP) on results without measured MLPerf® power.",
    bad="At a 1,100 W TGP, each GPU turns out 8.0 tokens per joule.",
    good="Compare power only with MLPerf® Power results, using their measured system power.",
)
def power_without_measurement(ctx: Context) -> Iterator[Issue]:
    """Reports power wording (per watt, per joule, energy-efficient, perf/W, kW, TDP) in a
    sentence that prints results, or in a paragraph whose results have no measured MLPerf®
    power. A proxy such as TDP is never allowed; measured system power is the only
    sanctioned power metric, and only for submissions that measured it. Words a placeholder
    printed from the data (a system named "0W") are not the article's claim, nor is a
    configuration named by its rating ("B200 TGP 1000W configuration", as the official notes
    name it). A claim resting on a row that measured power (a typed wattage equal to its
    measured power, its result beside it) is on measured power, whatever other rows its entry
    has; a table cell rests on the results of its row."""
    for b in ctx.prose():
        # a sentence can hold power wording only where the block's own search finds some
        spans = [(m.start(), m.end()) for m in POWER.finditer(b.text)]
        if not spans:
            continue
        rows = [r for c in claims_in(ctx, b) for r in c.rows]
        rows = rows or [r for x in section_of(ctx, b) for c in claims_in(ctx, x) for r in c.rows]
        for s in b.sentences:
            if not any(a < s.end and z > s.start for a, z in spans):
                continue
            text = b.words(s)
            m = next((m for m in POWER.finditer(text) if not ctx.printed(b, s.start + m.start())), None)
            if not m:
                continue
            here = claims_in(ctx, b, s)
            numbers = [c for c in here if c.kind != "entry"]
            # the results the sentence itself prints, when it prints some: an entry ID beside
            # them stands for every benchmark of the entry, and the paragraph's other sentences
            # may be about other systems
            own = [r for c in numbers for r in c.rows]
            if not numbers and not (
                rows and (re.search(r"(?<![\w.])\d", text) or EFFICIENCY_CLAIM.search(text))
            ):
                continue  # a version ("v6.1") is no number a power claim could rest on; "the more
                # energy-efficient choice" after the section's results is a claim about them
            labels = [(x.start(), x.end()) for x in CONFIG_LABEL.finditer(text)]
            if labels and all(any(a <= p.start() < z for a, z in labels) for p in POWER.finditer(text)):
                continue  # its only power words name a configuration ("TGP 1000W configuration")
            if _setting(ctx, b, text):
                continue
            if b.table >= 0 and not own:  # a cell: the results its table row prints
                own = [
                    r
                    for x in ctx.doc.cells(b.table)
                    if x.row == b.row
                    for c in claims_in(ctx, x)
                    for r in c.rows
                ]
            measured = _measured_values(ctx, numbers)
            if measured:
                own = measured  # "9,514.40 W", "31.7836 ÷ 9.51440": a row's own result and measured power
            unmeasured = sorted({label(r) for r in own or rows if not r.has_power})
            proxy = PROXY.search(text)
            if proxy and DENIED.search(text[: proxy.start()]):
                proxy = None  # "from official measurements rather than from a GPU's rated power"
                if all(PROXY.fullmatch(x.group(0)) for x in POWER.finditer(text)):
                    continue  # "no TDP enters any figure": the only power words deny a proxy
            if proxy:
                yield at(
                    b,
                    s.start + m.start(),
                    f'power claim ("{m.group(0)}") based on {proxy.group(0)}, which is not an MLPerf® power measurement',
                    "use only the measured system power of MLPerf® Power results",
                )
            elif unmeasured or not (own or rows):
                what = (
                    f"on results without measured MLPerf® power ({', '.join(unmeasured[:3])})"
                    if unmeasured
                    else "with no measured MLPerf® power behind it"
                )
                yield at(
                    b,
                    s.start + m.start(),
                    f'power claim ("{m.group(0)}") {what}',
                    "drop the power figure, or use measured MLPerf® system power",
                )
            break


def _measured_values(ctx: Context, numbers: list[Claim]) -> list[Row]:
    """The rows with measured MLPerf® power that the sentence's typed *numbers* give: a wattage
    equal to a row's measured power (in W or kW), or a result of a row that measured it. A
    claim resting on those is on measured power, whatever other rows its entry has."""
    values = [(c.value, c.tol) for c in numbers if c.typed]
    if ctx.matcher is None or not values:
        return []
    table = ctx.matcher.table
    out = []
    for r in table.rows(round=ctx.article_rounds or table.rounds, has_power={True}):
        if any(
            abs(v - r.result) <= tol or abs(v - r.power) <= tol or abs(v * 1000 - r.power) <= tol * 1000
            for v, tol in values
        ):
            out.append(r)
    return out


def _setting(ctx: Context, b: Block, text: str) -> bool:
    """A wattage stated as a configured limit, with no power wording beside it: the sentence's
    (or the table row's) only power words are wattages, and the sentence or row says "power
    limit", "capped at", "configured to"."""
    if any(not BARE_WATTS.match(m.group(0)) for m in POWER.finditer(text)):
        return False
    row = [x.text for x in ctx.doc.cells(b.table) if x.line == b.line] if b.table >= 0 else [text]
    return any(SETTING.search(t) for t in row)
