// Notifications on this phone, on a team's personal link page (tournaments.notices.push).
// Registers the referees' service worker (templates/referees/sw.js, scope /referee/: it
// serves the team's score sheet already, and handles the pushes), asks the browser for
// permission, subscribes with the site's VAPID public key and posts the subscription with
// the kinds chosen through the page's own form. The page recognises the phone it is open
// on by its endpoint's SHA-256 (the server never puts an endpoint on a page), and shows
// what a push tells while it is open (the worker posts it here): a match's table at once.
(function () {
  "use strict";
  var section = document.getElementById("push");
  if (!section) {
    return;
  }
  var onForm = document.getElementById("push-on-form");
  var offForm = document.getElementById("push-off-form");
  var phones = JSON.parse(document.getElementById("push-phones").textContent);

  function show(id, visible) {
    document.getElementById(id).hidden = !visible;
  }

  if (
    !("serviceWorker" in navigator) ||
    !("PushManager" in window) ||
    !("Notification" in window) ||
    !window.isSecureContext
  ) {
    show("push-unsupported", true);
    onForm.hidden = true;
    return;
  }

  function keyBytes(base64url) {
    var base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
    base64 += "===".slice((base64.length + 3) % 4);
    var raw = atob(base64);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) {
      bytes[i] = raw.charCodeAt(i);
    }
    return bytes;
  }

  function sameBytes(a, b) {
    return a.length === b.length && a.every(function (byte, i) {
      return byte === b[i];
    });
  }

  function digest(text) {
    return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)).then(function (hash) {
      return Array.prototype.map
        .call(new Uint8Array(hash), function (byte) {
          return byte.toString(16).padStart(2, "0");
        })
        .join("");
    });
  }

  function existing() {
    return navigator.serviceWorker.getRegistration(section.dataset.scope).then(function (reg) {
      return reg ? reg.pushManager.getSubscription() : null;
    });
  }

  // The worker's scope (/referee/) does not hold this page: navigator.serviceWorker.ready
  // would wait for ever, so wait for this registration's own worker to be active.
  function activeRegistration() {
    return navigator.serviceWorker
      .register(section.dataset.worker, { scope: section.dataset.scope })
      .then(function (reg) {
        if (reg.active) {
          return reg;
        }
        var worker = reg.installing || reg.waiting;
        return new Promise(function (resolve, reject) {
          worker.addEventListener("statechange", function () {
            if (worker.state === "activated") {
              resolve(reg);
            } else if (worker.state === "redundant") {
              reject(new Error("the service worker did not install"));
            }
          });
        });
      });
  }

  // The phone already on for this team: its kinds checked, "turn off" offered.
  existing()
    .then(function (subscription) {
      if (!subscription) {
        return;
      }
      return digest(subscription.endpoint).then(function (name) {
        var kinds = phones[name];
        if (!kinds || Notification.permission !== "granted") {
          return;
        }
        onForm.querySelectorAll("input[name=kinds]").forEach(function (box) {
          box.checked = kinds.indexOf(box.value) !== -1;
        });
        var button = document.getElementById("push-on");
        button.textContent = button.dataset.save;
        offForm.elements.endpoint.value = subscription.endpoint;
        offForm.hidden = false;
        show("push-on-now", true);
      });
    })
    .catch(function () {
      // Nothing known of this phone: it may still turn notifications on.
    });

  onForm.addEventListener("submit", function (event) {
    event.preventDefault();
    show("push-blocked", false);
    Notification.requestPermission()
      .then(function (permission) {
        if (permission !== "granted") {
          throw new Error("blocked");
        }
        return activeRegistration();
      })
      .then(function (reg) {
        var subscribe = function () {
          return reg.pushManager.subscribe({
            userVisibleOnly: true,
            applicationServerKey: keyBytes(section.dataset.key),
          });
        };
        return reg.pushManager.getSubscription().then(function (subscription) {
          if (!subscription) {
            return subscribe();
          }
          // Made with an older key of the site (its keys were renewed): made anew, since
          // its push service would refuse the pushes signed with the new one.
          var key = subscription.options && subscription.options.applicationServerKey;
          if (key && !sameBytes(new Uint8Array(key), keyBytes(section.dataset.key))) {
            return subscription.unsubscribe().then(subscribe);
          }
          return subscription;
        });
      })
      .then(function (subscription) {
        var json = subscription.toJSON();
        onForm.elements.endpoint.value = json.endpoint;
        onForm.elements.p256dh.value = json.keys.p256dh;
        onForm.elements.auth.value = json.keys.auth;
        onForm.submit();
      })
      .catch(function (error) {
        show(error.message === "blocked" ? "push-blocked" : "push-unsupported", true);
      });
  });

  // What a push tells, while this page is open (the worker posts it to the team's page).
  function told(data) {
    // The worker tells every page of the site: this one shows its own team's news only.
    if (!data || String(data.team) !== section.dataset.team) {
      return;
    }
    var live = document.getElementById("push-live");
    live.textContent = data.body;
    live.hidden = false;
    var table = document.getElementById("next-match-table");
    if (data.kind === "ready" && data.table && table) {
      table.textContent = data.table;
    }
  }

  navigator.serviceWorker.addEventListener("message", function (event) {
    told(event.data && event.data.push);
  });
  navigator.serviceWorker.startMessages();
})();
