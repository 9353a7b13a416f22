// Console layout: below 1100 px the sidebar folds into a top bar; its Menu button opens and closes it.
(function () {
  var button = document.querySelector(".nav-toggle");
  var sidebar = document.getElementById("sidebar");
  if (!button || !sidebar) { return; }
  button.addEventListener("click", function () {
    var open = button.getAttribute("aria-expanded") !== "true";
    button.setAttribute("aria-expanded", String(open));
    sidebar.classList.toggle("sidebar-open", open);
  });
})();
