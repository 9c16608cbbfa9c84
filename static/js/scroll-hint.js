/*
 * "It scrolls sideways" only where it does: a hint (.scroll-hint) is hidden while the box
 * right after it (a bracket) fits its width, as a short bracket does on a desktop. Without
 * JavaScript the hint stays: harmless where nothing scrolls.
 */
(function () {
  "use strict";

  function update() {
    document.querySelectorAll(".scroll-hint").forEach(function (hint) {
      var box = hint.nextElementSibling;
      if (box) {
        hint.hidden = box.scrollWidth <= box.clientWidth;
      }
    });
  }

  window.addEventListener("resize", update);
  update();
})();
