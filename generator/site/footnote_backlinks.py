"""One back-link per footnote, and none that leads nowhere.

Python-Markdown's footnotes extension writes a back-link per reference to a note: the round
overview's twelve notes carried 129 back-links, all but one per note hidden by the site's
stylesheet (``assets/charts.js`` points the visible one at the marker the reader followed). This
extension, one of the site's Markdown extensions (:data:`generator.site.plugin.EXTENSIONS`), keeps
a note's first back-link and drops the others; a note cited only inside a range of markers
(``¹⁻⁴`` cites 2 and 3) or a marker of many notes (:func:`generator.site.reader.citation_markers`)
has no reference of its own to lead back to, and no back-link.
"""

from __future__ import annotations

import xml.etree.ElementTree as etree
from typing import Any

from markdown import Markdown
from markdown.extensions import Extension
from markdown.extensions.footnotes import FootnoteExtension
from markdown.treeprocessors import Treeprocessor

BACKREF = "footnote-backref"


class OneBackLink(Treeprocessor):
    def run(self, root: etree.Element) -> None:
        found = _found_refs(self.md)
        for div in root.iter("div"):
            if div.get("class") != "footnote":
                continue
            for ol in div.findall("ol"):
                for li in ol.findall("li"):
                    _keep_one(li, found)


def _found_refs(md: Markdown) -> set[str] | None:
    """The IDs of the references the page has (``fnref:3``), or None without the footnotes extension."""
    ext = next((e for e in md.registeredExtensions if isinstance(e, FootnoteExtension)), None)
    return None if ext is None else set(ext.found_refs)


def _keep_one(li: etree.Element, found: set[str] | None) -> None:
    links = [
        (parent, a) for parent in li.iter() for a in parent if a.tag == "a" and a.get("class") == BACKREF
    ]
    note = li.get("id", "")
    dangling = found is not None and "fnref" + note.removeprefix("fn") not in found
    for i, (parent, a) in enumerate(links):
        if i or dangling:
            _remove(parent, a)


def _remove(parent: etree.Element, child: etree.Element) -> None:
    """*child* out of *parent*, the text after it kept."""
    if child.tail and child.tail.strip():
        i = list(parent).index(child)
        if i:
            prev = parent[i - 1]
            prev.tail = (prev.tail or "") + child.tail
        else:
            parent.text = (parent.text or "") + child.tail
    parent.remove(child)


class FootnoteBacklinksExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        # after Python-Markdown's footnote-duplicate (15), which adds a back-link per reference
        md.treeprocessors.register(OneBackLink(md), "gi-one-backlink", 14)


def makeExtension(**kwargs: Any) -> FootnoteBacklinksExtension:
    return FootnoteBacklinksExtension(**kwargs)
