// The port view: two adapters chosen on the page, and every case both ran and did not do alike,
// grouped by regime as reports/port.py groups them for `parity report port` (the same rules: a
// pair is alike when both passed, both were unsupported, or both are documented by one note; the
// regime is the target's, else the source's), narrowed to a model's port where one is chosen. Drawn
// from #port-data when a choice changes; recorded strings reach the page only as text nodes.
(function () {
  "use strict";
  var data = null;
  var TOP = 10;  // the groups "First to change" ranks (reports/port.py TOP)

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

  function plural(n, noun) { return n.toLocaleString("en") + " " + noun + (n === 1 ? "" : "s"); }

  // a group's error: the target's ulp, else its max abs err, else the source's (reports/port.py size)
  function size(g) {
    var s = (g.b[3] !== null && g.b[3] !== undefined) || (g.b[2] !== null && g.b[2] !== undefined) ? g.b : g.a;
    var v = s[3] !== null && s[3] !== undefined ? s[3] : s[2];
    if (v === null || v === undefined) { return 0; }
    return typeof v === "string" ? Infinity : v;
  }

  function order(x, y) { return x === y ? 0 : (x < y ? -1 : 1); }

  // the most urgent groups first, as reports/port.py ranked: the regime's urgency, an op a model
  // calls, the error's size, the number of cases; the unsupported are not ranked
  function ranked(found) {
    return found.filter(function (g) { return data.urgency.indexOf(g.regime) >= 0; }).sort(function (x, y) {
      return order(data.urgency.indexOf(x.regime), data.urgency.indexOf(y.regime)) ||
        order(data.used.indexOf(y.spec) >= 0, data.used.indexOf(x.spec) >= 0) ||
        order(size(y), size(x)) || order(y.count, x.count);
    });
  }

  function short(s) {
    if (s[0] === "pass") { return "pass"; }
    var note = noteOf(s), v = s[3] !== null && s[3] !== undefined ? " " + s[3] + " ulp" :
      (s[2] !== null && s[2] !== undefined ? " err " + s[2] : "");
    return s[0] + v + (note ? ": " + note[1] : "");
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
    var apart = found.filter(function (g) { return g.regime === "unsupported"; })
      .reduce(function (n, g) { return n + g.count; }, 0);
    view.appendChild(el("p", {"class": "port-total"}, total ? title + ": " + plural(total - apart, "case") +
                        (total - apart === 1 ? " differs" : " differ") + (apart ? ", and " + plural(apart, "case") + " one side cannot run" : "")
                        : title + ": no case differs (of the cases both ran)"));
    var first = ranked(found).slice(0, TOP);
    if (first.length) {
      view.appendChild(el("h3", {}, "First to change"));
      var list = view.appendChild(el("ol", {"class": "port-first"}));
      first.forEach(function (g) {
        list.appendChild(el("li", {}, "[" + g.regime + "] " + data.specs[g.spec] + ": " + target + " " + short(g.b) +
                            " | " + source + " " + short(g.a) + " (" + plural(g.count, "case") + ")"));
      });
    }
    data.regimes.forEach(function (regime) {
      var rows = found.filter(function (g) { return g.regime === regime; });
      if (!rows.length) { return; }
      var count = rows.reduce(function (n, g) { return n + g.count; }, 0);
      var into = view;
      if (regime === "unsupported") {  // nothing to compare: counted, folded
        into = view.appendChild(el("details", {"class": "fold"}));
        into.appendChild(el("summary", {}, "unsupported (" + count + "): one side cannot run them"));
      } else {
        view.appendChild(el("h3", {"class": regime === "undocumented" ? "fail" : ""}, regime + " (" + count + ")"));
      }
      var table = el("table", {"class": "port"}), head = el("tr");
      ["spec", "seen in", source, target].forEach(function (h) { head.appendChild(el("th", {}, h)); });
      table.appendChild(el("thead")).appendChild(head);
      var body = table.appendChild(el("tbody"));
      rows.forEach(function (g) {
        var tr = body.appendChild(el("tr"));
        tr.appendChild(el("td", {}, data.specs[g.spec]));
        tr.appendChild(el("td", {}, plural(g.count, "case") + ": " + g.seen.map(function (s) {
          return Object.keys(s).join(", ");
        }).join("; ")));
        side(tr.appendChild(el("td")), source, g.a, g.spec);
        side(tr.appendChild(el("td")), target, g.b, g.spec);
      });
      into.appendChild(el("div", {"class": "scroll"})).appendChild(table);
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
    Array.prototype.forEach.call(document.querySelectorAll("a.port-pair"), function (link) {  // the first screen's pairs
      link.addEventListener("click", function () {
        document.getElementById("port-source").value = link.getAttribute("data-source");
        document.getElementById("port-target").value = link.getAttribute("data-target");
        draw();
      });
    });
    Array.prototype.forEach.call(document.querySelectorAll("a.port-model"), function (link) {
      link.addEventListener("click", function () { choice.value = link.getAttribute("data-model"); draw(); });
    });
    draw();
  });
}());
