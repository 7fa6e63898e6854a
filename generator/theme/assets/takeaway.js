/* GPU Insights: what a reader takes away from a page.
 *
 * - Sortable tables: a table of the page's text with more than SORTABLE_ROWS rows gets a button in
 *   each column heading; pressing it (mouse, tap, Enter or Space) sorts the rows by that column,
 *   ascending then descending, and the heading's aria-sort says which (numbers as numbers: the
 *   typographic minus, thousands separators, "%" and "×" are read; "—" and empty cells last).
 * - Copyable permalinks: a heading's or figure's link (a.headerlink) copies the page's URL with
 *   its anchor to the clipboard when followed, and says so in a polite live region.
 * No library, nothing fetched: the page works without it (tables in their order, links as links).
 */
(function () {
  "use strict";
  var SORTABLE_ROWS = 5;
  var NUMBER = /^[\u2212+\-]?\$?\d[\d,]*(?:\.\d+)?/;

  function cellValue(cell) {
    var text = (cell ? cell.textContent : "").trim();
    var m = text.match(NUMBER);
    if (m) {
      var n = parseFloat(m[0].replace(/[$,]/g, "").replace("\u2212", "-"));
      if (!isNaN(n)) return { num: n, text: text };
    }
    return { num: null, text: text };
  }

  function compare(a, b, numeric) {
    var blankA = a.text === "" || a.text === "\u2014", blankB = b.text === "" || b.text === "\u2014";
    if (blankA || blankB) return blankA === blankB ? 0 : blankA ? 1 : -1;
    if (numeric && a.num !== null && b.num !== null) return a.num - b.num;
    return a.text.localeCompare(b.text, undefined, { numeric: true, sensitivity: "base" });
  }

  function sortBy(table, col, button) {
    var th = button.closest("th");
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var values = rows.map(function (row, i) {
      return { row: row, index: i, value: cellValue(row.cells[col]) };
    });
    var numeric = values.every(function (v) {
      return v.value.num !== null || v.value.text === "" || v.value.text === "\u2014";
    });
    values.sort(function (a, b) {
      var blanks = (a.value.text === "" || a.value.text === "\u2014") || (b.value.text === "" || b.value.text === "\u2014");
      var c = compare(a.value, b.value, numeric);
      if (!blanks) c = ascending ? c : -c;
      return c || a.index - b.index;
    });
    values.forEach(function (v) { body.appendChild(v.row); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (cell) {
      cell.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  }

  function makeSortable(table) {
    if (!table.tHead || !table.tBodies.length || table.tBodies[0].rows.length <= SORTABLE_ROWS) return;
    if (table.closest(".gi-provenance, .footnote, .gi-review")) return;
    table.setAttribute("data-gi-sortable", "");
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "gi-sort";
      while (th.firstChild) button.appendChild(th.firstChild);
      button.setAttribute("title", "Sort by this column");
      button.addEventListener("click", function () { sortBy(table, col, button); });
      th.appendChild(button);
    });
  }

  var status;
  function say(message) {
    if (!status) {
      status = document.createElement("div");
      status.className = "gi-status";
      status.setAttribute("role", "status");
      status.setAttribute("aria-live", "polite");
      document.body.appendChild(status);
    }
    status.textContent = message;
    status.classList.add("gi-status--shown");
    clearTimeout(say.timer);
    say.timer = setTimeout(function () { status.classList.remove("gi-status--shown"); }, 2500);
  }

  function copyPermalink(event) {
    var link = event.target.closest("a.headerlink");
    if (!link || !navigator.clipboard) return;
    var url = new URL(link.getAttribute("href"), location.href).href;
    navigator.clipboard.writeText(url).then(
      function () { say("Link copied: " + url); },
      function () { /* the link still goes to the anchor: the address bar holds it */ }
    );
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll(".md-content table"), makeSortable);
    document.addEventListener("click", copyPermalink);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
