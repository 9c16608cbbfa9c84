/*
 * "It scrolls sideways" only where it does: a hint (.scroll-hint) is hidden while the box
 * right after it (a bracket, a standings table) fits its width, as it does on a desktop.
 * Checked again when the window changes size and when a live page has replaced its
 * content (static/js/live.js). Without JavaScript the hint stays: harmless where nothing
 * scrolls.
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
  document.addEventListener("live:updated", update);
  update();
})();
