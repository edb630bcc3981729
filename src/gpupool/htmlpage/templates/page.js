// Progressive enhancement only: the page reads the same without it.
(function () {
  "use strict";
  var box = document.querySelector(".filters");
  if (box) {
    box.hidden = false;
    box.addEventListener("change", function () {
      box.querySelectorAll("input[data-sev]").forEach(function (input) {
        document.querySelectorAll('.fsev[data-sev="' + input.dataset.sev + '"]').forEach(function (el) {
          el.classList.toggle("hide-sev", !input.checked);
        });
      });
    });
  }
  // Printing shows every collapsed list.
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details").forEach(function (d) { d.open = true; });
  });
})();
