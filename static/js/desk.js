// The desk (templates/organiser/desk.html, tournaments/web/organiser/desk.py): each row is
// checked by the engine as it is typed (its data-check URL answers the engine's sentence
// as JSON), saved without leaving the page (the row and the round's progress come back
// rendered by the server), and the first empty row then takes the focus. Without this
// script every row's form posts to the page, which comes back with that row.
(function () {
  "use strict";
  var table = document.getElementById("desk");
  if (!table || !window.fetch) return;
  var timers = {};
  var asked = {};

  function rowOf(element) {
    return element.closest ? element.closest("tr.desk-row") : null;
  }

  function formOf(row) {
    return document.getElementById(row.id.replace("row-", "desk-form-"));
  }

  // The row's boxes as the check reads them (the form's own, its inputs named by it).
  function typed(form) {
    var params = new URLSearchParams();
    Array.prototype.forEach.call(form.elements, function (element) {
      if (element.name && element.type !== "hidden" && element.type !== "submit") {
        params.append(element.name, element.value);
      }
    });
    return params;
  }

  function show(row, state, message) {
    var output = row.querySelector(".desk-check");
    if (!output) return;
    output.textContent = message;
    output.className = "desk-check desk-check--" + state;
  }

  function check(row) {
    var form = formOf(row);
    if (!form) return;
    var serial = (asked[row.id] || 0) + 1;
    asked[row.id] = serial;
    fetch(row.getAttribute("data-check") + "?" + typed(form).toString(), {
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.json();
      })
      .then(function (answer) {
        // Only the answer to what the row holds now: an older one may arrive last.
        if (asked[row.id] === serial) show(row, answer.state, answer.message);
      })
      .catch(function () {
        // Nothing to say while typing: saving the row tells the service's sentence.
      });
  }

  table.addEventListener("input", function (event) {
    var row = rowOf(event.target);
    if (!row || !row.hasAttribute("data-check")) return;
    row.querySelectorAll(".desk-error").forEach(function (old) {
      old.remove();
    });
    clearTimeout(timers[row.id]);
    timers[row.id] = setTimeout(function () {
      check(row);
    }, 150);
  });

  // Enter on the winner of a chico (a table of three) saves the row, as in a box.
  table.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || event.target.tagName !== "SELECT" || !event.target.form) return;
    event.preventDefault();
    event.target.form.requestSubmit();
  });

  function firstEmpty() {
    var rows = table.querySelectorAll("tr.desk-row--open");
    for (var i = 0; i < rows.length; i++) {
      var boxes = rows[i].querySelectorAll("input.score-input");
      var empty = Array.prototype.every.call(boxes, function (box) {
        return box.value === "";
      });
      if (boxes.length && empty) return boxes[0];
    }
    return null;
  }

  function fromHtml(html, wrapper) {
    var holder = document.createElement(wrapper);
    holder.innerHTML = html.trim();
    return holder.firstElementChild;
  }

  table.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("desk-form")) return;
    event.preventDefault();
    var row = document.getElementById(form.id.replace("desk-form-", "row-"));
    // A second Enter while the first is on its way saves nothing twice.
    if (!row || row.getAttribute("aria-busy") === "true") return;
    row.setAttribute("aria-busy", "true");
    clearTimeout(timers[row.id]);
    asked[row.id] = (asked[row.id] || 0) + 1;
    show(row, "saving", table.getAttribute("data-saving"));
    fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.json();
      })
      .then(function (answer) {
        var fresh = fromHtml(answer.row, "tbody");
        row.replaceWith(fresh);
        var progress = document.getElementById("desk-progress");
        var counted = fromHtml(answer.progress, "div");
        if (progress && counted) progress.innerHTML = counted.innerHTML;
        var picker = document.getElementById("desk-round");
        if (picker && answer.rounds) picker.innerHTML = answer.rounds;
        var next = answer.saved
          ? firstEmpty()
          : fresh.querySelector("input.score-input, select");
        if (next) next.focus();
      })
      .catch(function () {
        row.removeAttribute("aria-busy");
        show(row, "refused", table.getAttribute("data-failed"));
      });
  });
})();
