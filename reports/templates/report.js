// Filters (area, adapter, device, status), sortable tables, and the per-spec tables and heatmaps,
// drawn from the page's JSON (#spec-data) when a spec is opened: as markup, a full run's would weigh
// tens of MB and take seconds to lay out. Elements carry what they are about in data-area /
// data-adapter / data-device / data-status (space-separated lists where a row is about several); a
// filter hides an element whose list lacks the chosen value. Adapter columns of the per-spec tables
// carry data-col-adapter and are hidden by the adapter filter. Recorded strings reach the page only
// as text nodes (textContent), never as markup.
(function () {
  "use strict";
  var KEYS = ["area", "adapter", "device", "status"];

  function has(el, key, value) {
    var list = el.getAttribute("data-" + key);
    return list === null || list.split(" ").indexOf(value) >= 0;
  }

  function apply() {
    var chosen = {};
    KEYS.forEach(function (key) {
      var select = document.getElementById("filter-" + key);
      chosen[key] = select ? select.value : "";
    });
    document.querySelectorAll("[data-filtered]").forEach(function (el) {
      var show = KEYS.every(function (key) { return !chosen[key] || has(el, key, chosen[key]); });
      el.classList.toggle("hidden", !show);
    });
    document.querySelectorAll("[data-col-adapter]").forEach(function (el) {
      var show = !chosen.adapter || el.getAttribute("data-col-adapter") === chosen.adapter;
      el.classList.toggle("hidden", !show);
    });
  }

  function sortBy(th) {
    var table = th.closest("table");
    var body = table.tBodies[0];
    var index = Array.prototype.indexOf.call(th.parentNode.children, th);
    var ascending = th.getAttribute("data-order") !== "asc";
    th.setAttribute("data-order", ascending ? "asc" : "desc");
    var rows = Array.prototype.slice.call(body.rows);
    function key(row) {
      var cell = row.children[index];
      if (!cell) { return ""; }
      var sort = cell.getAttribute("data-sort");
      var text = sort !== null ? sort : cell.textContent.trim();
      var number = parseFloat(text);
      return isNaN(number) || sort === null && !/^[-+]?[\d.]/.test(text) ? text.toLowerCase() : number;
    }
    rows.sort(function (a, b) {
      var x = key(a), y = key(b);
      if (typeof x !== typeof y) { x = String(x); y = String(y); }
      return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1);
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }

  var SVG = "http://www.w3.org/2000/svg";
  var data = null;

  function el(tag, attrs, text) {
    var node = tag.indexOf("svg:") === 0 ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function short(text, limit) { return text.length <= limit ? text : text.slice(0, limit - 1) + "\u2026"; }

  // Green for agreement to the last bits of float64, red for differences of order one (charts.py's scale).
  function heat(value) {
    if (value === "inf") { return "hsl(0, 70%, 45%)"; }
    var t = Math.min(Math.max((Math.log10(Math.max(value, 1e-17)) + 17) / 17, 0), 1);
    return "hsl(" + Math.round(120 * (1 - t)) + ", 65%, " + Math.round(85 - 30 * t) + "%)";
  }

  function sci(value) {
    if (value === "inf") { return "inf"; }
    return value < 1e-17 ? "0" : value.toExponential(0).replace("e+", "e");
  }

  function heatmap(adapters, label, cases, cells, spec) {
    var size = 46, left = 92, top = 92, n = adapters.length;
    var width = left + size * n + 8, height = top + size * n + 8;
    var svg = el("svg:svg", {"class": "heatmap", role: "img", width: width, height: height,
                              viewBox: "0 0 " + width + " " + height});
    svg.appendChild(el("svg:title", {}, spec + " " + label + ": largest relative difference between adapters over " +
                       cases + " example(s)"));
    adapters.forEach(function (name, i) {
      var x = left + i * size + size / 2;
      svg.appendChild(el("svg:text", {x: x, y: top - 6, transform: "rotate(-40 " + x + " " + (top - 6) + ")",
                                      "class": "label"}, short(name, 12)));
      svg.appendChild(el("svg:text", {x: left - 6, y: top + i * size + size / 2 + 4, "text-anchor": "end",
                                      "class": "label"}, short(name, 12)));
    });
    var pairs = {}, k = 0;  // cells: each pair i < j in row order, symmetric; the diagonal is 0
    adapters.forEach(function (a, i) {
      adapters.forEach(function (b, j) { if (i < j) { pairs[i + "," + j] = pairs[j + "," + i] = cells[k++]; } });
    });
    adapters.forEach(function (a, i) {
      adapters.forEach(function (b, j) {
        var value = pairs[i + "," + j], x = left + j * size, y = top + i * size;
        if (i === j) {  // itself: 0 where it was compared with any other
          value = adapters.some(function (c, m) { var v = pairs[i + "," + m]; return v !== undefined && v !== null; })
            ? 0 : undefined;
        }
        if (value === null) { value = undefined; }
        var g = el("svg:g");
        g.appendChild(el("svg:title", {}, a + " vs " + b + ": " +
                         (value === undefined ? "not compared" : value === "inf" ? "inf" : String(value))));
        g.appendChild(el("svg:rect", {x: x, y: y, width: size - 2, height: size - 2,
                                      fill: value === undefined ? "#eee" : heat(value)}));
        g.appendChild(el("svg:text", {x: x + size / 2 - 1, y: y + size / 2 + 4, "text-anchor": "middle", "class": "cell"},
                         value === undefined ? "" : sci(value)));
        svg.appendChild(g);
      });
    });
    var figure = el("figure");
    figure.appendChild(el("figcaption", {}, label + ": adapters vs adapters"));
    figure.appendChild(svg);
    return figure;
  }

  function specTable(spec) {
    var machines = {};
    spec.rows.forEach(function (row) { machines[row[4]] = true; });
    var several = Object.keys(machines).length > 1;
    var table = el("table"), head = el("tr"), body = el("tbody");
    ["case", "kind", "dtype", "device"].concat(several ? ["machine"] : []).forEach(function (name) {
      head.appendChild(el("th", {"class": "sortable"}, name));
    });
    spec.adapters.forEach(function (a) { head.appendChild(el("th", {"data-col-adapter": a.split(" ")[0]}, a)); });
    table.appendChild(el("thead")).appendChild(head);
    spec.rows.forEach(function (row) {
      var cells = row[5], statuses = [];
      var tr = el("tr", {"data-filtered": "", "data-device": row[3]});
      row.slice(0, several ? 5 : 4).forEach(function (v) { tr.appendChild(el("td", {}, v)); });
      cells.forEach(function (cell, i) {
        var td = el("td", {"data-col-adapter": spec.adapters[i].split(" ")[0]});
        if (cell) {
          var status = data.statuses[cell[0]];
          statuses.push(status);
          td.className = "cell-" + status;
          if (cell[2] >= 0) { td.title = data.messages[cell[2]]; }
          td.appendChild(el("span", {"class": status}, status));
          td.appendChild(el("br"));
          td.appendChild(el("small", {}, cell[1]));
        }
        tr.appendChild(td);
      });
      tr.setAttribute("data-status", statuses.filter(function (s, i) { return statuses.indexOf(s) === i; }).join(" "));
      body.appendChild(tr);
    });
    table.appendChild(body);
    return table;
  }

  function drawSpec(details) {
    var body = details.querySelector(".spec-body");
    if (!details.open || body.childNodes.length) { return; }
    data = data || JSON.parse(document.getElementById("spec-data").textContent);
    var name = details.getAttribute("data-spec"), spec = data.specs[name];
    body.appendChild(specTable(spec));
    if (spec.heatmaps.length) {
      var maps = el("div", {"class": "heatmaps"});
      spec.heatmaps.forEach(function (h) { maps.appendChild(heatmap(spec.adapters, h[0], h[1], h[2], name)); });
      body.appendChild(maps);
    }
    body.querySelectorAll("th.sortable").forEach(function (th) {
      th.addEventListener("click", function () { sortBy(th); });
    });
    apply();
  }

  // The sticky header's height, so that a heading a link jumps to is not hidden under it (report.css)
  function headerHeight() {
    var header = document.querySelector("header");
    document.documentElement.style.setProperty("--header", (header ? header.offsetHeight : 0) + "px");
  }

  document.addEventListener("DOMContentLoaded", function () {
    headerHeight();
    window.addEventListener("resize", headerHeight);
    document.querySelectorAll("details[data-spec]").forEach(function (details) {
      details.addEventListener("toggle", function () { drawSpec(details); });
      if (location.hash === "#" + details.id) { details.open = true; }
    });
    KEYS.forEach(function (key) {
      var select = document.getElementById("filter-" + key);
      if (select) { select.addEventListener("change", apply); }
    });
    document.querySelectorAll("th.sortable").forEach(function (th) {
      th.addEventListener("click", function () { sortBy(th); });
    });
    document.querySelectorAll("button.copy").forEach(function (button) {
      button.addEventListener("click", function () {
        var code = document.getElementById(button.getAttribute("data-target")).textContent;
        if (navigator.clipboard) { navigator.clipboard.writeText(code).catch(function () {}); }
      });
    });
    apply();
  });
}());
