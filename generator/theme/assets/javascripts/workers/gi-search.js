// The theme's search worker (Material for MkDocs, named after "?worker=", in this folder) with its
// query parser splitting terms at white space only (generator/theme/main.html points the theme at
// this file). Lunr's parser splits a query at every hyphen, whatever the site's search separator:
// "6.1-0052" was searched as "6.1" and "0052", and every page of a round matched. The terms are
// still split at the site's separator (mkdocs.yml: an entry ID's hyphen is not one) by the theme.
(function () {
  var name = new URL(self.location.href).searchParams.get("worker") || "";
  if (!/^search\.[\w.-]+\.js$/.test(name)) {
    throw new Error("gi-search.js: not the theme's search worker: " + name);
  }
  importScripts(name);
  self.lunr.QueryLexer.termSeparator = /\s+/;
})();
