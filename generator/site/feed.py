"""The publication's feed (mkdocs-rss-plugin, ``plugins: [rss]``): every text escaped once, no
character XML forbids, and a plain-text excerpt for an article without a description.

The feed's template (``feed/rss.xml``) replaces the plugin's own, which escaped a title the pages
had escaped already (``AT&amp;amp;T``), printed the channel's title and an item's authors not
escaped at all, and took an article without ``description`` as its first 160 characters of
Markdown (raw links, then "In M..."). Pages give each article's feed text in front matter
(``rss: {feed_description: ...}``, see :func:`feed_text`), which the plugin reads.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

#: the folder of the feed's template
TEMPLATE_DIR = Path(__file__).resolve().parent / "feed"
#: its name: ``.xml``, so Jinja escapes every value it prints
TEMPLATE = "rss.xml"

#: what XML 1.0 forbids in a document (a ``"\uFFFF"`` YAML escape in a title made the feed
#: ill-formed): controls but tab and line breaks, surrogates, U+FFFE and U+FFFF
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")

#: the longest excerpt, in characters (a feed reader shows two or three lines)
EXCERPT_CHARS = 300
#: how much of a paragraph is read for the excerpt: the patterns below stay linear on any article
_READ_CHARS = 2000

_MARKER = re.compile(r"\[\^?\\\[\d+\\\]\]\(#mlperf-fn-\d+\)|\[\^[^\]\s]{1,40}\]")
_IMAGE = re.compile(r"!\[[^\]\n]{0,500}\]\([^)\n]{0,500}\)")
_LINK = re.compile(r"\[([^\]\n]{0,500})\]\([^)\n]{0,500}\)")
_TAG = re.compile(r"<[^<>\n]{0,500}>")
_EMPHASIS = re.compile(r"(?<!\\)(\*\*|\*|`|__)")
_ESCAPED = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>~])")
#: blocks that are not prose: headings, tables, lists, quotes, admonitions, code, HTML, captions
_NOT_PROSE = re.compile(r"\s*(?:#|\||[-+*] |\d{1,9}[.)] |>|!!!|\?\?\?|```|~~~|<|\*(?:Table|Figure) )")


def xml_text(text: str) -> str:
    """*text* without the characters XML 1.0 forbids."""
    return _NOT_XML.sub("", text)


def excerpt(markdown: str, limit: int = EXCERPT_CHARS) -> str:
    """The first prose of a rendered article as plain text (no link, marker, tag or emphasis),
    at most *limit* characters, cut at a word with an ellipsis."""
    words: list[str] = []
    size = 0
    for block in re.split(r"\n\s*\n", markdown.replace("\r\n", "\n")):
        if size >= limit:
            break
        if not block.strip() or _NOT_PROSE.match(block) or block.startswith("    "):
            continue
        text = _plain(block[:_READ_CHARS])
        words += text.split()
        size += len(text) + 1
    out = " ".join(words)
    if len(out) <= limit:
        return out
    cut = out[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return f"{cut}…"


#: the erratum mark at a contradicted sentence (a link to the Errata): the feed item says so first
_ERRATUM_MARK = re.compile(r'<sup class="gi-erratum">.*?</sup>', re.S)


def _plain(block: str) -> str:
    text = _ERRATUM_MARK.sub("", block)
    text = _MARKER.sub("", text)
    text = _IMAGE.sub("", text)
    text = _LINK.sub(r"\1", text)
    text = _TAG.sub("", text)
    text = _EMPHASIS.sub("", text)
    text = _ESCAPED.sub(r"\1", text)
    return xml_text(html.unescape(text))


def feed_text(meta: dict[str, Any], markdown: str) -> str:
    """What the feed says of an article: its description as text, else an :func:`excerpt`."""
    desc = meta.get("description")
    if isinstance(desc, str | int | float) and str(desc).strip():
        return xml_text(" ".join(str(desc).split()))
    return excerpt(markdown)


def fix_json_feeds(config: Any) -> None:
    """The JSON feeds the rss plugins of *config* wrote, with each item's title, authors and tags
    as the text they are (JSON Feed's are text; the plugin took them from the pages, escaped for
    HTML: ``AT&amp;T``); ``content_html`` stays HTML."""
    for plugin in _rss_plugins(config):
        if not plugin.config.json_feed_enabled:
            continue
        names = plugin.config.feeds_filenames
        for name in (names.json_created, names.json_updated):
            path = Path(config.site_dir) / name
            try:
                feed = json.loads(path.read_text("utf-8"))
            except (OSError, ValueError):
                continue  # not written (no entries), or not this plugin's
            for item in feed.get("items", []):
                item["title"] = html.unescape(str(item.get("title") or ""))
                item["authors"] = [
                    {"name": html.unescape(str(a.get("name", "")))} for a in item.get("authors") or []
                ]
                item["tags"] = [html.unescape(str(t)) for t in item.get("tags") or []]
            # as the plugin writes it: a feed without escaped text is the same bytes
            path.write_text(json.dumps(feed, indent=4 if plugin.config.pretty_print else None), "utf-8")


def _rss_plugins(config: Any) -> list[Any]:
    return [
        p
        for p in config.plugins.values()
        if type(p).__module__.startswith("mkdocs_rss_plugin") and hasattr(p, "tpl_file")
    ]


class _Folders(list[Path]):
    """The folders the rss plugin loads its template from (the feed's first, then its own), which
    also finds its stylesheet (``default.xsl``) in its own folder, as it did."""

    def __init__(self, own: Path) -> None:
        super().__init__([TEMPLATE_DIR, own])
        self.own = own

    def joinpath(self, *names: str) -> Path:
        return self.own.joinpath(*names)


def use_feed_template(config: Any) -> None:
    """Give every ``rss`` plugin of *config* the feed's template, and channel texts XML allows."""
    for plugin in _rss_plugins(config):
        own = plugin.tpl_folder
        plugin.tpl_folder = own if isinstance(own, _Folders) else _Folders(Path(own))
        plugin.tpl_file = Path(TEMPLATE)
        for feed in (getattr(plugin, "feed_created", None), getattr(plugin, "feed_updated", None)):
            for name in ("title", "description", "author"):
                value = getattr(feed, name, None)
                if isinstance(value, str):
                    setattr(feed, name, xml_text(value))
