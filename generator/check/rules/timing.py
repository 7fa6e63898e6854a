"""Timing (§7): non-submitters publish a round's results two weeks after its publication."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import replace

from generator.check.context import Context
from generator.check.registry import Issue, rule
from generator.check.rules.common import at_meta
from generator.data.versions import version_key

WINDOW = dt.timedelta(days=14)


def _cites_results(ctx: Context) -> bool:
    return any(c.rows or c.kind == "entry" or c.unit in ("throughput", "per_gpu") for c in ctx.claims)


@rule(
    "MLP015",
    "published-too-early",
    family="timing",
    severity="error",
    guideline="§7 Timing for Results Disclosures",
    summary="The article's date is earlier than two weeks after the official publication of a round it cites.",
    bad="date: 2026-09-20  (v6.1 was published on 2026-09-16)",
    good="date: 2026-10-05",
)
def published_too_early(ctx: Context) -> Iterator[Issue]:
    """Reports an article dated before the end of the two-week window that follows the official
    publication of a round whose results it cites (dates from ``data/rounds.toml``). A submitter
    publishing its own results (front matter ``publisher: Nebius``, a submitter of the cited
    rows) may publish from the publication date on; so may an author that names the one
    submitter of every cited row ("author: GigaComputing press office"). Without ``publisher:``,
    an article whose author is a submitter of some of the cited rows, or whose title reads as
    one's own announcement ("Press release: AMD Instinct MI355X achieves ..."), may be its own: a
    warning."""
    date = ctx.rendered.article.date
    if date is None:
        return
    publisher = str(ctx.rendered.article.meta.get("publisher", "")).strip().lower()
    for v in sorted(ctx.cited_rounds, key=version_key):
        rnd = ctx.manifest.rounds.get(v)
        if rnd is None:
            continue
        submitted = {
            r.submitter.lower().replace("_", " ") for c in ctx.claims for r in c.rows if r.round == v
        }
        own = bool(publisher) and any(s == publisher or s.startswith(publisher + " ") for s in submitted)
        # "author: GigaComputing press office" on an article citing GigaComputing's rows alone:
        # the submitter publishing its own results, as "publisher:" says
        own = own or (not publisher and len(submitted) == 1 and _author_is(ctx, submitted, OWN_VOICE))
        earliest = rnd.published if own else rnd.published + WINDOW
        if date < earliest and own:
            yield at_meta(
                ctx,
                "date",
                0,
                f"dated {date.isoformat()}, before {earliest.isoformat()}: submitters may publish v{v} results "
                "only from their official publication date",
                f"date the article {earliest.isoformat()} or later",
            )
        elif date < earliest:
            issue = at_meta(
                ctx,
                "date",
                0,
                f"dated {date.isoformat()}, before {earliest.isoformat()}: non-submitters may publish v{v} "
                f"results only two weeks after their {rnd.published.isoformat()} publication",
                f"date the article {earliest.isoformat()} or later, or name the submitter that publishes "
                "its own results in the front matter (publisher: ...)",
            )
            # a press release whose title or author names a submitter of the cited rows may be that
            # submitter's own: without "publisher:" the checker cannot tell (a warning)
            yield replace(issue, undecided=_author_is(ctx, submitted)) if not publisher else issue


def _author_is(ctx: Context, submitted: set[str], voice: re.Pattern[str] | None = None) -> bool:
    """Whether the front matter's author names a submitter of the cited rows, or the title names
    one in words of its own announcement (*voice*: "Investor relations update: Cisco ...")."""
    meta = ctx.rendered.article.meta
    title, author = str(meta.get("title", "")).lower(), str(meta.get("author", "")).lower()

    def names(text: str) -> bool:
        return any(re.search(rf"\b{re.escape(s.split()[0])}\b", text) for s in submitted if s)

    said = (voice or ANNOUNCEMENT).search(f"{title} {author}")
    return names(author) or (names(title) and said is not None)


#: words of a company's own channel: its press office, newsroom, investor relations
OWN_VOICE = re.compile(
    r"\bpress release\b|\bnewsroom\b|\bcorporate communications\b|\binvestor relations\b|"
    r"\bpress office\b|\bshareholders?\b"
)
#: a title or author that reads as a company's own announcement (a journalist's too, maybe)
ANNOUNCEMENT = re.compile(rf"{OWN_VOICE.pattern}|\bannounc\w*|\bachiev\w*|\bunveil\w*")


@rule(
    "MLP020",
    "missing-date",
    family="timing",
    severity="error",
    guideline="§7 Timing for Results Disclosures",
    summary="An article that cites results has no publication date, so the timing rule cannot be checked.",
    bad="Front matter without date:",
    good="date: 2026-10-05",
)
def missing_date(ctx: Context) -> Iterator[Issue]:
    """Reports an article that cites results but has no date in its front matter (a YAML date,
    a datetime, or a written date such as "October 5, 2026")."""
    if ctx.rendered.article.date is None and _cites_results(ctx):
        yield Issue(
            "the front matter has no date, and the article cites results",
            line=ctx.rendered.article.meta_lines.get("date", 1),
            help="add the date it is published to the front matter, as date: YYYY-MM-DD",
        )
