/*
 * Share buttons: an <a data-share="TEXT" href="https://wa.me/?text=..."> opens the phone's
 * share sheet with TEXT (navigator.share) where the browser has one; elsewhere, and
 * without JavaScript, the link itself opens WhatsApp with the text typed. No inline
 * script: the page's Content-Security-Policy allows this file only.
 */
(function () {
  "use strict";

  if (typeof navigator.share !== "function") {
    return;
  }
  document.querySelectorAll("a[data-share]").forEach(function (link) {
    link.addEventListener("click", function (event) {
      var text = link.getAttribute("data-share");
      if (navigator.canShare && !navigator.canShare({ text: text })) {
        return; // the link's WhatsApp page
      }
      event.preventDefault();
      navigator.share({ text: text }).catch(function (error) {
        // Closing the sheet is no failure; anything else falls back to the link.
        if (!error || error.name !== "AbortError") {
          window.open(link.href, "_blank", "noopener");
        }
      });
    });
  });
})();
