// The site's script. Draw every chart from its Vega-Lite spec with the bundled Vega (no network
// beyond this site): the chart fills its column (the spec's width is "container") and follows the
// page's light or dark palette; the static SVG stays in place until the chart is drawn, and when it
// cannot be; a tap on a mark shows its details under the chart. And footnotes: a note shows one back-link (site.css hides the others Python-Markdown
// writes, one per marker), which leads back to the marker the reader followed. And a table that
// scrolls sideways can be reached with the keyboard.
(function () {
  var DARK = {
    background: null,
    axis: {labelColor: "#e2e4e9", titleColor: "#e2e4e9", gridColor: "#3a3d4d", domainColor: "#8c8fa3", tickColor: "#8c8fa3"},
    legend: {labelColor: "#e2e4e9", titleColor: "#e2e4e9"},
    title: {color: "#e2e4e9"},
    text: {color: "#e2e4e9"}
  };
  var LIGHT = {
    background: null,
    axis: {labelColor: "#333", titleColor: "#333"},
    legend: {labelColor: "#333", titleColor: "#333"},
    title: {color: "#222"}
  };

  // A tap (or a click) on a mark shows what its tooltip shows, under the chart: a phone has no
  // hover. Tapping the chart outside the marks, or the same mark again, hides it.
  function details(el) {
    var box = el.querySelector(".gi-chart-details");
    if (!box) {
      box = document.createElement("div");
      box.className = "gi-chart-details";
      box.setAttribute("aria-live", "polite");
      box.hidden = true;
      el.appendChild(box);
    }
    return box;
  }

  function showDetails(el, item) {
    var box = details(el);
    var tip = item && item.tooltip;
    if (!tip || typeof tip !== "object" || box.__giItem === item) {
      box.hidden = true;
      box.__giItem = null;
      return;
    }
    var list = document.createElement("dl");
    Object.keys(tip).forEach(function (key) {
      var term = document.createElement("dt");
      var value = document.createElement("dd");
      term.textContent = key;
      value.textContent = String(tip[key]);
      list.appendChild(term);
      list.appendChild(value);
    });
    box.replaceChildren(list);
    box.hidden = false;
    box.__giItem = item;
  }

  function dark() {
    return document.body.getAttribute("data-md-color-scheme") === "slate";
  }

  // ---- weight (issue 35): Vega (900 KB, 305 KB gzipped) is loaded by this script, beside it, on a
  // page with a chart only, once a chart comes near the screen; each chart is drawn then. Nothing
  // holds back the page's first render or its first interactions; the SVG fallback shows until then.
  var VEGA = ((document.currentScript && document.currentScript.src) || "").replace(/charts\.js(\?.*)?$/, "vega-bundle.js");
  var vegaScript = null;

  function withVega(then) {
    if (window.vegaEmbed) { then(); return; }
    if (!vegaScript) {
      vegaScript = document.createElement("script");
      vegaScript.src = VEGA;
      vegaScript.async = true;
      document.head.appendChild(vegaScript);
    }
    vegaScript.addEventListener("load", then);
  }

  function load(el) {
    fetch(el.getAttribute("data-spec"))
      .then(function (r) { return r.json(); })
      .then(function (spec) { el.__giSpec = spec; withVega(function () { draw(el); }); })
      .catch(function (err) { el.setAttribute("data-error", String(err)); });
  }

  function whenNear(charts) {
    if (!("IntersectionObserver" in window)) { charts.forEach(load); return; }
    var near = new IntersectionObserver(function (seen) {
      seen.forEach(function (e) {
        if (e.isIntersecting) { near.unobserve(e.target); load(e.target); }
      });
    }, {rootMargin: "300px 0px"});
    charts.forEach(function (el) { near.observe(el); });
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
        res.view.addEventListener("click", function (event, item) { showDetails(el, item); });
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
    var ref = event.target.closest && event.target.closest("a.footnote-ref, sup.gi-fn-group > a");
    var sup = ref && ref.parentElement;
    var note = ref && document.getElementById(decodeURIComponent(ref.hash.slice(1)));
    var back = note && note.querySelector("a.footnote-backref");
    if (sup && sup.id && back) { back.setAttribute("href", "#" + sup.id); }
  }

  // A table wider than its column scrolls sideways in the theme's wrapper (a round's data tables
  // on a phone): such a wrapper becomes a labelled region in the tab order, so that a keyboard
  // reaches what is off screen; a wrapper that fits again leaves the tab order.
  function scrollable() {
    document.querySelectorAll(".md-typeset__scrollwrap").forEach(function (wrap) {
      var wide = wrap.scrollWidth > wrap.clientWidth + 1;
      if (wide && !wrap.hasAttribute("tabindex")) {
        var heading = wrap.previousElementSibling;
        while (heading && !/^H[1-6]$/.test(heading.tagName)) { heading = heading.previousElementSibling; }
        wrap.setAttribute("tabindex", "0");
        wrap.setAttribute("role", "region");
        wrap.setAttribute("aria-label", (heading ? heading.textContent.trim() + ": " : "") + "table, scrolls sideways");
      } else if (!wide && wrap.getAttribute("role") === "region") {
        ["tabindex", "role", "aria-label"].forEach(function (a) { wrap.removeAttribute(a); });
      }
    });
  }

  function start() {
    // the theme wraps tables as it starts, which may be after this script: again once all is loaded
    window.addEventListener("load", scrollable);
    window.addEventListener("resize", function () { requestAnimationFrame(scrollable); });
    // a table below the screen is drawn as it comes near (site.css: content-visibility): measured then
    document.addEventListener("contentvisibilityautostatechange", function (event) {
      if (!event.skipped) { requestAnimationFrame(scrollable); }
    }, true);
    if (window.document$ && window.document$.subscribe) { window.document$.subscribe(function () { setTimeout(scrollable); }); }
    scrollable();
    document.addEventListener("click", followMarker, true);
    document.addEventListener("pointermove", function () { requestAnimationFrame(clampTooltip); }, true);
    whenNear(document.querySelectorAll(".gi-vega[data-spec]"));
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
