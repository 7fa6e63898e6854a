// The site's script. Draw every chart from its Vega-Lite spec with the bundled Vega (no network
// beyond this site): the chart fills its column (the spec's width is "container") and follows the
// page's light or dark palette; the static SVG stays in place until the chart is drawn, and when it
// cannot be. And footnotes: a note shows one back-link (site.css hides the others Python-Markdown
// writes, one per marker), which leads back to the marker the reader followed.
(function () {
  var DARK = {
    background: null,
    axis: {labelColor: "#e2e4e9", titleColor: "#e2e4e9", gridColor: "#3a3d4d", domainColor: "#8c8fa3", tickColor: "#8c8fa3"},
    title: {color: "#e2e4e9"},
    text: {color: "#e2e4e9"}
  };
  var LIGHT = {background: null, axis: {labelColor: "#333", titleColor: "#333"}, title: {color: "#222"}};

  function dark() {
    return document.body.getAttribute("data-md-color-scheme") === "slate";
  }

  function draw(el) {
    var spec = el.__giSpec;
    if (!spec) { return; }
    var holder = el.querySelector(".gi-vega-view") || el.appendChild(document.createElement("div"));
    holder.className = "gi-vega-view";
    vegaEmbed(holder, spec, {renderer: "svg", actions: false, config: dark() ? DARK : LIGHT})
      .then(function (res) {
        el.classList.add("gi-drawn");
        var svg = holder.querySelector("svg");
        if (svg && spec.description) {
          svg.setAttribute("role", "img");
          svg.setAttribute("aria-label", spec.description);
        }
        if (el.__giView) { el.__giView.finalize(); }
        el.__giView = res.view;
      })
      .catch(function (err) { el.setAttribute("data-error", String(err)); });
  }

  // Vega's tooltip follows the pointer and may leave a phone's screen: keep it inside the viewport
  // (checked after each pointer move, once Vega has placed it).
  function clampTooltip() {
    var tip = document.getElementById("vg-tooltip-element");
    if (!tip || !tip.classList.contains("visible")) { return; }
    var width = tip.getBoundingClientRect().width;
    var left = parseFloat(tip.style.left) || 0;
    var max = window.scrollX + document.documentElement.clientWidth - width - 4;
    var clamped = Math.max(window.scrollX + 4, Math.min(left, max));
    if (Math.abs(clamped - left) > 0.5) { tip.style.left = clamped + "px"; }
  }

  // The note's visible back-link now leads to the marker just followed (without this script, to
  // the note's first marker).
  function followMarker(event) {
    var ref = event.target.closest && event.target.closest("a.footnote-ref");
    var sup = ref && ref.parentElement;
    var note = ref && document.getElementById(decodeURIComponent(ref.hash.slice(1)));
    var back = note && note.querySelector("a.footnote-backref");
    if (sup && sup.id && back) { back.setAttribute("href", "#" + sup.id); }
  }

  function start() {
    document.addEventListener("click", followMarker, true);
    document.addEventListener("pointermove", function () { requestAnimationFrame(clampTooltip); }, true);
    document.querySelectorAll(".gi-vega[data-spec]").forEach(function (el) {
      fetch(el.getAttribute("data-spec"))
        .then(function (r) { return r.json(); })
        .then(function (spec) { el.__giSpec = spec; draw(el); })
        .catch(function (err) { el.setAttribute("data-error", String(err)); });
    });
    new MutationObserver(function () {
      document.querySelectorAll(".gi-vega.gi-drawn").forEach(draw);
    }).observe(document.body, {attributes: true, attributeFilter: ["data-md-color-scheme"]});
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
