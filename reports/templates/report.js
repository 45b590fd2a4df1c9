// Filters (area, adapter, device, status) and sortable tables. Elements carry what they are about
// in data-area / data-adapter / data-device / data-status (space-separated lists where a row is about
// several); a filter hides an element whose list lacks the chosen value. Adapter columns of the
// per-spec tables carry data-col-adapter and are hidden by the adapter filter.
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

  document.addEventListener("DOMContentLoaded", function () {
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
