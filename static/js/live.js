/*
 * Live public pages: a page follows what it shows and updates itself, without a reload.
 *
 * The convention (docs/architecture.md, "Live pages"):
 * - <body data-live-topics="site cm.copa m.12"> marks a live page and names its topics;
 * - every element with data-live and an id is a live region: when a topic changes, the
 *   page named by data-live (empty: this page) is fetched again and the region's content
 *   is replaced by that of the element with the same id there;
 * - [data-live-mode] (inside [data-live-status]) says how the page follows: its
 *   data-live-text-socket or data-live-text-polling.
 *
 * The page listens on a WebSocket (/ws/live/); when it cannot open or drops, the page
 * polls every few seconds with the ETag it last saw (an unchanged page costs a 304) and
 * keeps trying the socket again, less and less often.
 */
(function () {
  "use strict";

  var POLL_MS = 5000;
  var DEBOUNCE_MS = 100;
  // At most one refresh a second: a busy stage announces several hands a second, and a
  // page follows them all within the two seconds it promises, at a bounded cost.
  var MIN_GAP_MS = 1000;
  var RETRY_MIN_MS = 2000;
  var RETRY_MAX_MS = 60000;

  var body = document.body;
  var topics = (body.getAttribute("data-live-topics") || "").trim();
  if (!topics) {
    return;
  }

  var etags = {};
  var busy = false;
  var again = false;
  var timer = null;
  var lastStart = 0;
  var pollTimer = null;
  var retryMs = RETRY_MIN_MS;
  var opened = false;

  function regions() {
    var found = [];
    document.querySelectorAll("[data-live][id]").forEach(function (element) {
      var outer = element.parentElement && element.parentElement.closest("[data-live][id]");
      if (!outer) {
        found.push(element);
      }
    });
    return found;
  }

  function urlOf(region) {
    return region.getAttribute("data-live") || window.location.pathname + window.location.search;
  }

  function showMode(state) {
    body.setAttribute("data-live-state", state);
    document.querySelectorAll("[data-live-status]").forEach(function (status) {
      var mode = status.querySelector("[data-live-mode]");
      if (mode) {
        mode.textContent = status.getAttribute("data-live-text-" + state) || "";
      }
    });
  }

  function swap(url, html) {
    var fetched = new DOMParser().parseFromString(html, "text/html");
    regions().forEach(function (region) {
      if (urlOf(region) !== url) {
        return;
      }
      var fresh = fetched.getElementById(region.id);
      if (fresh && fresh.innerHTML !== region.innerHTML) {
        region.innerHTML = fresh.innerHTML;
      }
    });
    var title = fetched.querySelector("title");
    if (title && url === window.location.pathname) {
      document.title = title.textContent;
    }
    showMode(body.getAttribute("data-live-state") || "polling");
    document.dispatchEvent(new CustomEvent("live:updated", { detail: { url: url } }));
  }

  function fetchOne(url) {
    var headers = {};
    if (etags[url]) {
      headers["If-None-Match"] = etags[url];
    }
    return fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" }).then(
      function (response) {
        if (response.status === 304 || !response.ok) {
          return null;
        }
        etags[url] = response.headers.get("ETag");
        return response.text().then(function (html) {
          swap(url, html);
        });
      }
    );
  }

  function refresh() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    lastStart = Date.now();
    var urls = [];
    regions().forEach(function (region) {
      var url = urlOf(region);
      if (urls.indexOf(url) < 0) {
        urls.push(url);
      }
    });
    Promise.all(urls.map(function (url) {
      return fetchOne(url).catch(function () {});
    })).then(function () {
      busy = false;
      if (again) {
        // Changed while it was fetched: the page may be older than the change.
        again = false;
        soon();
      }
    });
  }

  // Never postponed by the next message (a stream of them must not starve the page):
  // one refresh is due, and it shows every change announced before it starts.
  function soon() {
    if (timer !== null) {
      return;
    }
    var wait = Math.max(DEBOUNCE_MS, lastStart + MIN_GAP_MS - Date.now());
    timer = window.setTimeout(function () {
      timer = null;
      refresh();
    }, wait);
  }

  function startPolling() {
    showMode("polling");
    if (pollTimer === null) {
      pollTimer = window.setInterval(refresh, POLL_MS);
    }
  }

  function stopPolling() {
    if (pollTimer !== null) {
      window.clearInterval(pollTimer);
      pollTimer = null;
    }
  }

  function connect() {
    if (!("WebSocket" in window)) {
      startPolling();
      return;
    }
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var socket;
    try {
      socket = new WebSocket(
        scheme + window.location.host + "/ws/live/?topics=" + encodeURIComponent(topics)
      );
    } catch (error) {
      startPolling();
      return;
    }
    socket.onopen = function () {
      stopPolling();
      showMode("socket");
      retryMs = RETRY_MIN_MS;
      if (opened) {
        refresh(); // what changed while the socket was down
      }
      opened = true;
    };
    socket.onmessage = soon;
    socket.onclose = function () {
      startPolling();
      window.setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
    };
  }

  showMode("polling");
  connect();
})();
