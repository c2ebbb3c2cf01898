// Sortable, filterable tables (class "sortable"): click a column's header to sort by it
// (again to reverse), type in the box above a table to show only rows containing the text.
// Our own file, inlined in the page: no network, nothing stored.
(function () {
  "use strict";
  function key(cell) {
    if (!cell) { return [2, ""]; }
    var text = (cell.getAttribute("data-sort") || cell.textContent).trim();
    var number = text.replace(/\u2212/g, "-").match(/^[+-]?\d[\d,]*(\.\d+)?/);
    if (number) { return [0, parseFloat(number[0].replace(/,/g, ""))]; }
    if (text === "" || text === "-" || text === "\u2013" || text === "\u2014") {
      return [2, ""];
    }
    return [1, text.toLowerCase()];
  }
  function compare(a, b) {
    if (a[0] !== b[0]) { return a[0] - b[0]; }
    return a[1] < b[1] ? -1 : (a[1] > b[1] ? 1 : 0);
  }
  function sortBy(table, column) {
    var head = table.tHead.rows[0].cells[column];
    var ascending = head.getAttribute("aria-sort") !== "ascending";
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
      th.removeAttribute("aria-sort");
    });
    head.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (r1, r2) {
      var order = compare(key(r1.cells[column]), key(r2.cells[column]));
      return ascending ? order : -order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }
  function addFilter(table) {
    var box = document.createElement("input");
    box.type = "search";
    box.className = "filter";
    box.placeholder = "filter rows";
    box.setAttribute("aria-label", "filter the rows of the table below");
    box.addEventListener("input", function () {
      var wanted = box.value.trim().toLowerCase();
      Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
        row.hidden = wanted !== "" && row.textContent.toLowerCase().indexOf(wanted) < 0;
      });
    });
    var holder = table.parentNode.classList.contains("scroll") ? table.parentNode : table;
    holder.parentNode.insertBefore(box, holder);
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    if (!table.tHead || !table.tBodies.length) { return; }
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, column) {
      th.tabIndex = 0;
      th.title = "sort by this column";
      th.addEventListener("click", function () { sortBy(table, column); });
      th.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          sortBy(table, column);
        }
      });
    });
    addFilter(table);
  });
}());
