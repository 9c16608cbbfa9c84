/*
 * Copy buttons: a <button data-copy="ID"> copies the value of the field #ID and says so in
 * the next [role=status] of its panel (data-copied, or data-copy-failed when the browser
 * refuses). The buttons are hidden in the markup and shown here: without JavaScript the
 * field stays, to select and copy by hand. No inline script: the page's
 * Content-Security-Policy allows this file only.
 */
(function () {
  "use strict";

  function say(button, text) {
    var panel = button.closest("section") || document;
    var status = panel.querySelector("[role=status]");
    if (status) {
      status.textContent = text;
    }
  }

  function fallback(field) {
    // Older browsers, or a page not served over HTTPS: the selection and execCommand.
    field.focus();
    field.select();
    try {
      return document.execCommand("copy");
    } catch (error) {
      return false;
    }
  }

  function copy(button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) {
      return;
    }
    var done = function () {
      say(button, button.getAttribute("data-copied") || "");
    };
    var failed = function () {
      if (fallback(field)) {
        done();
      } else {
        say(button, button.getAttribute("data-copy-failed") || "");
      }
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done, failed);
    } else {
      failed();
    }
  }

  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      copy(button);
    });
  });
})();
