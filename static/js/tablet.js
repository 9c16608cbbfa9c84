// The referee's tablet. Progressive enhancement: a second tap while the next page loads would
// post the same step twice (harmless, but a double save reports a stale page).
(function () {
  "use strict";
  var busy = false;
  document.addEventListener("submit", function (event) {
    if (busy) {
      event.preventDefault();
    } else {
      busy = true;
    }
  });
  window.addEventListener("pageshow", function () {
    busy = false;
  });
})();
