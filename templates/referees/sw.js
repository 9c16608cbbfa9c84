// The referee's tablet offline (referees.views.service_worker), and the pushes to a team's
// phone (at the end). Pages under the scope are fetched from the network first and kept, so
// a match sheet opened once reloads with the network gone; the static files, Pyodide and
// the engine (named by their content) come from the cache first. The hands themselves
// never pass through here: the page keeps them in its outbox (static/js/tablet-client.js)
// until the server has them.
const CACHE = "{{ cache|escapejs }}";
const PRECACHE = JSON.parse("{{ precache_json|escapejs }}");
const SCOPE = "{{ scope|escapejs }}";
// A page that takes longer than this over a weak venue Wi-Fi comes from the cache.
const PAGE_TIMEOUT_MS = 4000;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys
            .filter((key) => key.startsWith("tanteo-tablet-") && key !== CACHE)
            .map((key) => caches.delete(key))
        )
      )
      .then(() => self.clients.claim())
  );
});

function pageKey(url) {
  // One copy per page, whatever its query string or fragment.
  return url.origin + url.pathname;
}

async function page(request, url) {
  const cache = await caches.open(CACHE);
  try {
    const response = await Promise.race([
      fetch(request),
      new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), PAGE_TIMEOUT_MS)),
    ]);
    if (response.ok && !response.redirected) {
      await cache.put(pageKey(url), response.clone());
    }
    return response;
  } catch (error) {
    const kept = await cache.match(pageKey(url), { ignoreVary: true });
    if (kept) {
      return kept;
    }
    throw error;
  }
}

async function file(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request, { ignoreSearch: true, ignoreVary: true });
  if (kept) {
    return kept;
  }
  const response = await fetch(request);
  if (response.ok) {
    await cache.put(request, response.clone());
  }
  return response;
}

// The page asks for itself to be kept: the first visit is not yet under this worker.
self.addEventListener("message", (event) => {
  const url = new URL(event.data && event.data.keep, self.location.origin);
  if (url.origin !== self.location.origin || !url.pathname.startsWith(SCOPE)) {
    return;
  }
  const reply = (ok) => event.ports[0] && event.ports[0].postMessage({ kept: ok });
  event.waitUntil(
    fetch(url.pathname, { credentials: "same-origin" })
      .then(async (response) => {
        if (!response.ok || response.redirected) {
          return reply(false);
        }
        await (await caches.open(CACHE)).put(pageKey(url), response);
        reply(true);
      })
      .catch(() => reply(false))
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") {
    return;
  }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (request.mode === "navigate" && url.pathname.startsWith(SCOPE)) {
    event.respondWith(page(request, url));
  } else if (PRECACHE.includes(url.pathname)) {
    event.respondWith(file(request));
  }
});

// A push to a team's phone (tournaments.notices.webpush): the notification, and the team's
// pages told at once if one is open (it shows the news, a match's table). They are outside
// the scope, so they are found among all the site's windows; each page keeps what names
// its own team (the payload's "team").
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { body: event.data ? event.data.text() : "" };
  }
  // Only a page of this site is opened from a notification.
  const url = new URL(data.url || "/", self.location.origin);
  const target = url.origin === self.location.origin ? url : new URL("/", self.location.origin);
  event.waitUntil(
    Promise.all([
      self.registration.showNotification(data.title || "Tanteo", {
        body: data.body || "",
        tag: data.tag,
        icon: "{{ icon|escapejs }}",
        data: { url: target.href },
      }),
      self.clients
        .matchAll({ type: "window", includeUncontrolled: true })
        .then((clients) => clients.forEach((client) => client.postMessage({ push: data }))),
    ])
  );
});

// The notification opens the team's page, or brings it forward when it is open.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const data = event.notification.data || {};
  const url = new URL(data.url || "/", self.location.origin);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((clients) => {
      const open = clients.find((client) => new URL(client.url).pathname === url.pathname);
      return open ? open.focus() : self.clients.openWindow(url.href);
    })
  );
});
