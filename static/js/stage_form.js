// The stage form shows only the settings of the chosen format. Each setting's wrapper
// lists the format choices it serves in data-formats; without this script every setting
// shows, each labelled with its format.
(function () {
  "use strict";
  var select = document.getElementById("id_format");
  if (!select) return;
  var settings = document.querySelectorAll("[data-formats]");
  function update() {
    var chosen = select.value;
    settings.forEach(function (element) {
      var formats = element.getAttribute("data-formats").split(" ");
      element.hidden = formats.indexOf(chosen) === -1;
    });
  }
  select.addEventListener("change", update);
  update();
})();
