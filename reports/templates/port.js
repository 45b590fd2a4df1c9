// The port view: two adapters chosen on the page, and every case both ran and did not do alike,
// grouped by regime as reports/port.py groups them for `parity report port` (the same rules: a
// pair is alike when both passed, both were unsupported, or both are documented by one note; the
// regime is the target's, else the source's), narrowed to a model's port where one is chosen. Drawn
// from #port-data when a choice changes; recorded strings reach the page only as text nodes.
(function () {
  "use strict";
  var data = null;

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function noteOf(side) { return side[1] >= 0 ? data.notes[side[1]] : null; }

  function regimeOf(side) {
    if (side[0] === "documented") { return noteOf(side)[0]; }
    if (side[0] === "crash" || side[0] === "timeout") { return "crash"; }
    return side[0] === "unsupported" ? "unsupported" : "undocumented";
  }

  function alike(a, b) {
    if (a[0] !== b[0]) { return false; }
    return a[0] !== "documented" || noteOf(a)[1] === noteOf(b)[1];
  }

  // a model's port: its specs and dtypes (reports/port.py models); every case where none is chosen
  function inScope(c, model) {
    var scope = model && data.models[model];
    return !scope || (scope.specs.indexOf(c[0]) >= 0 && scope.dtypes.indexOf(c[4]) >= 0);
  }

  function groups(source, target, mode, model) {
    var found = {};
    data.cases.forEach(function (c) {
      var a = c[6][source], b = c[6][target];
      if (!a || !b || (mode && c[5] !== mode) || !inScope(c, model) || alike(a, b)) { return; }
      var regime = b[0] !== "pass" ? regimeOf(b) : regimeOf(a);
      var key = [regime, c[0], a[0], a[1], b[0], b[1]].join("|");
      var g = found[key] || (found[key] = {regime: regime, spec: c[0], a: a, b: b, seen: [{}, {}, {}, {}], count: 0});
      g.count += 1;
      [c[1], c[2], c[4], c[5]].forEach(function (v, i) { g.seen[i][v] = true; });  // case, kind, dtype, mode
    });
    return Object.keys(found).map(function (k) { return found[k]; });
  }

  function side(cell, name, s, spec) {
    var note = noteOf(s);
    cell.appendChild(el("span", {"class": s[0]}, s[0]));
    if (s[2] !== null && s[2] !== undefined) { cell.appendChild(el("small", {}, " max abs err " + s[2])); }
    if (note) {
      cell.appendChild(el("div", {}, note[1]));
      cell.appendChild(el("small", {"class": "wide"}, note[2]));
    }
    var rerun = data.reruns[[spec, name, s[0], s[1]].join(" ")];
    if (rerun) {
      var more = el("details", {"class": "fold"});
      more.appendChild(el("summary", {}, "run again"));
      more.appendChild(el("code", {}, rerun));
      cell.appendChild(more);
    }
  }

  function draw() {
    data = data || JSON.parse(document.getElementById("port-data").textContent);
    var source = document.getElementById("port-source").value, target = document.getElementById("port-target").value;
    var view = document.getElementById("port-view");
    view.textContent = "";
    if (source === target) { view.appendChild(el("p", {}, "Choose two different adapters.")); return; }
    var model = document.getElementById("port-model").value;
    var found = groups(source, target, document.getElementById("port-mode").value, model);
    var total = found.reduce(function (n, g) { return n + g.count; }, 0);
    var title = source + " \u2192 " + target + (model ? " of " + model : "");
    view.appendChild(el("p", {"class": "port-total"}, total ? title + ": " + total +
                        " case(s) differ" : title + ": no case differs (of the cases both ran)"));
    data.regimes.forEach(function (regime) {
      var rows = found.filter(function (g) { return g.regime === regime; });
      if (!rows.length) { return; }
      var count = rows.reduce(function (n, g) { return n + g.count; }, 0);
      view.appendChild(el("h3", {"class": regime === "undocumented" ? "fail" : ""}, regime + " (" + count + ")"));
      var table = el("table", {"class": "port"}), head = el("tr");
      ["spec", "seen in", source, target].forEach(function (h) { head.appendChild(el("th", {}, h)); });
      table.appendChild(el("thead")).appendChild(head);
      var body = table.appendChild(el("tbody"));
      rows.forEach(function (g) {
        var tr = body.appendChild(el("tr"));
        tr.appendChild(el("td", {}, data.specs[g.spec]));
        tr.appendChild(el("td", {}, g.count + " case(s): " + g.seen.map(function (s) {
          return Object.keys(s).join(", ");
        }).join("; ")));
        side(tr.appendChild(el("td")), source, g.a, g.spec);
        side(tr.appendChild(el("td")), target, g.b, g.spec);
      });
      view.appendChild(el("div", {"class": "scroll"})).appendChild(table);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!document.getElementById("port-data")) { return; }
    data = JSON.parse(document.getElementById("port-data").textContent);
    var choice = document.getElementById("port-model");
    Object.keys(data.models).forEach(function (m) { choice.appendChild(el("option", {}, m)); });
    ["port-source", "port-target", "port-mode", "port-model"].forEach(function (id) {
      document.getElementById(id).addEventListener("change", draw);
    });
    Array.prototype.forEach.call(document.querySelectorAll("a.port-model"), function (link) {
      link.addEventListener("click", function () { choice.value = link.getAttribute("data-model"); draw(); });
    });
    draw();
  });
}());
