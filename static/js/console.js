// Review queue: "select all" and the selected count for the bulk bar.
(function () {
  function items() { return document.querySelectorAll("input.select-item"); }
  function refresh() {
    var selected = Array.prototype.filter.call(items(), function (box) { return box.checked; }).length;
    var label = document.getElementById("selected-count");
    if (label) { label.textContent = selected + " selected"; }
    var all = document.getElementById("select-all");
    if (all) { all.checked = selected > 0 && selected === items().length; }
  }
  document.addEventListener("change", function (event) {
    if (event.target.id === "select-all") {
      items().forEach(function (box) { box.checked = event.target.checked; });
    }
    refresh();
  });
  document.addEventListener("htmx:afterSettle", refresh);
})();
