// The referee's tablet, offline first (docs/architecture.md, "A hand's path").
//
// The server-rendered sheet works on its own: every tap is a form post. Once this script
// has the rules engine running in a Web Worker (Pyodide and the `scoring` package,
// templates/referees/worker.js), it takes the hand entry over: each tap is checked by the
// engine in the browser and drawn at once, with the server page's markup and classes
// (templates/referees/sheet.html: the two sides in fixed places with the mano marked, the
// team's mazo in one tap, "start the hand again" asked and undoable, the card grid), so the
// page looks and behaves the same whoever drew it. Every tap is written to localStorage before the page changes; the
// hand in progress is sent to the server's draft in the background, and each saved hand
// waits in an outbox until the server has it (POST with an Idempotency-Key made once per
// hand, retried with backoff; a refusal is shown and the data kept). The service worker
// (templates/referees/sw.js) keeps the page, the engine and Pyodide for reloads offline.
(function () {
  "use strict";

  var holder = document.getElementById("tablet-context");
  var section = document.getElementById("entry");
  if (!holder || !section || !("Worker" in window) || !window.localStorage) {
    return;
  }
  var ctx = JSON.parse(holder.textContent);
  var L = ctx.labels;
  var KEY = "tanteo.tablet." + ctx.match;
  var RETRY_MAX_MS = 30000;
  var DRAFT_DELAY_MS = 400;

  var store = null; // what this tablet keeps for the match (see adopt())
  var view = null; // the engine's answer for the hand being entered
  var worker = null;
  var engineReady = false;
  var navigating = false;
  var sentHands = false; // a hand of the outbox reached the server in this sync
  var reachable = true;
  var syncing = false;
  var syncAgain = false; // asked to sync while a sync was on its way: sync once more after it
  var retryMs = 1000;
  var retryTimer = null;
  var draftTimer = null;
  var notice = "";
  var errors = [];
  var confirmingReset = false; // "Start the hand again" tapped once: asked before wiping
  var requests = {};
  var nextId = 1;
  var queue = Promise.resolve();

  // -- small helpers ---------------------------------------------------------------------
  function fmt(template, params) {
    return String(template).replace(/%(?:\((\w+)\))?([s%])/g, function (all, name, kind) {
      if (kind === "%") {
        return "%";
      }
      return name in params ? String(params[name]) : all;
    });
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      var value = attrs[name];
      if (value === null || value === undefined || value === false) {
        return;
      }
      if (name === "text") {
        node.textContent = value;
      } else {
        node.setAttribute(name, value === true ? "" : value);
      }
    });
    (children || []).forEach(function (child) {
      if (child) {
        node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
      }
    });
    return node;
  }

  function uuid() {
    if (window.crypto && crypto.randomUUID) {
      return crypto.randomUUID();
    }
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
  }

  function device() {
    // The server names this browser's device (its cookie): the page's taps and the script's
    // syncs are one device, never two holding the same match.
    var id = ctx.device || localStorage.getItem("tanteo.device");
    if (!id) {
      id = "tablet-" + uuid();
      localStorage.setItem("tanteo.device", id);
    }
    return id;
  }

  function name(player) {
    return ctx.names[player] || player;
  }

  // Why the engine refused a step, in the page's language with the people's names, as the
  // server's sheet says it (tournaments.errors); the general sentence when it has no words.
  function reason(error) {
    var template = (L.engine_messages || {})[error.code];
    if (!template || !error.params) {
      return L.engine_refused;
    }
    var params = {};
    Object.keys(error.params).forEach(function (key) {
      var value = error.params[key];
      var shown = function (v) {
        return typeof v === "string" ? ctx.names[v] || ctx.teams[v] || v : String(v);
      };
      params[key] = Array.isArray(value) ? value.map(shown).join(", ") : shown(value);
    });
    var text = fmt(template, params);
    return /%\(\w+\)s/.test(text) ? L.engine_refused : text;
  }

  function sidePlayers(side, order) {
    // Team order, as the server's labels: "Ana and Alba", "Ana, Alba and Ale"; in a
    // pica-pica pair, only the pair's player of that side (``order``: the part's players).
    // At a table of three an event may name either pair member's side: the hand's side
    // (view.sides, the engine's word) is the whole pair.
    var members = ctx.head.teams[side] || [];
    var hand = "C" in ctx.head.teams && view && view.sides ? view.sides : {};
    Object.keys(hand).forEach(function (handSide) {
      var seats = hand[handSide].map(function (seat) {
        return seat.player;
      });
      if (seats.some(function (p) { return members.indexOf(p) >= 0; })) {
        members = seats;
      }
    });
    var players = members
      .filter(function (player) {
        return !order || order.indexOf(player) >= 0;
      })
      .map(name);
    if (players.length < 2) {
      return players.join("");
    }
    return players.slice(0, -1).join(", ") + " " + L.and + " " + players[players.length - 1];
  }

  function describe(ev, order) {
    var player = ev.by ? name(ev.by) : "";
    if ("call" in ev) {
      return fmt(L.call, { player: player, call: L.call_names[ev.call] || ev.call });
    }
    if ("answer" in ev) {
      return fmt(L.answer, { player: player, answer: L.answer_names[ev.answer] || ev.answer });
    }
    if ("trick" in ev) {
      return ev.trick === "parda" ? L.parda : fmt(L.trick, { players: sidePlayers(ev.trick, order) });
    }
    if ("mazo" in ev) {
      return fmt(L.mazo, { player: player });
    }
    if ("envido_winner" in ev) {
      return fmt(L.envido_winner, { players: sidePlayers(ev.envido_winner, order) });
    }
    if ("flor_winner" in ev) {
      return fmt(L.flor_winner, { players: sidePlayers(ev.flor_winner, order) });
    }
    if ("envido" in ev || "flor" in ev) {
      var points = ev.envido || ev.flor;
      var values = Object.keys(points)
        .map(function (p) {
          return name(p) + " " + points[p];
        })
        .join(", ");
      return fmt("envido" in ev ? L.envido_points : L.flor_points, { values: values });
    }
    if ("mestre" in ev) {
      return fmt(ev.mestre === "play" ? L.mestre_play : L.mestre_pass, { player: player });
    }
    if ("penalty" in ev) {
      var p = ev.penalty;
      return fmt(L.penalty, {
        points: p.points,
        team: ctx.names[p.to] || ctx.teams[p.to] || p.to,
        reason: p.reason,
      });
    }
    if ("void" in ev) {
      return fmt(L.void, { reason: ev.void });
    }
    return fmt(L.play, { player: player, card: cardName(ev.play) });
  }

  function cardName(card) {
    // "7 of swords", as referees.entry.card_name says it.
    var suit = card.slice(-1);
    return L.card_names && L.card_names[suit] ? fmt(L.card_names[suit], { rank: card.slice(0, -1) }) : card;
  }

  // -- what this tablet keeps ------------------------------------------------------------
  function save() {
    localStorage.setItem(KEY, JSON.stringify(store));
  }

  function fromPage() {
    return {
      number: ctx.number,
      state: ctx.state,
      draft: ctx.draft.record,
      revision: ctx.draft.revision,
      draftDirty: false,
      draftSteps: 0,
      journal: [], // taps written before the engine answered them
      outbox: [], // saved hands the server does not have yet
      sent: [], // hands sent from this page, shown in the hands table
      conflict: heldElsewhere(),
      undo: pageUndo(), // the hand before "start the hand again", to undo the restart
    };
  }

  function heldElsewhere() {
    // The server drew this page for a device that does not hold the match: taking it over
    // comes first, as on the page without script (the same words, since when included).
    if (section.getAttribute("data-held") !== "other") {
      return null;
    }
    var note = section.querySelector(".held__note");
    return { code: "other_device", message: note ? note.textContent.trim() : L.other_device };
  }

  function pageUndo() {
    // The server-drawn page may have just restarted the hand: its undo comes along.
    var input = section.querySelector("input[name=undo]");
    try {
      return input ? JSON.parse(input.value) : null;
    } catch (error) {
      return null;
    }
  }

  function adopt() {
    // The page is the server's word unless this tablet holds something the server lacks
    // (a reload offline shows the page as the service worker kept it: older than this).
    var kept = null;
    try {
      kept = JSON.parse(localStorage.getItem(KEY) || "null");
    } catch (error) {
      kept = null;
    }
    // Whether another device holds the match is the page's word (heldElsewhere), never
    // what was kept: a take-over on the page without script ends it.
    var held = kept && kept.conflict && kept.conflict.code === "other_device";
    var pending =
      kept && (kept.outbox.length || kept.journal.length || kept.draftDirty || (kept.conflict && !held));
    if (!pending || (kept.number < ctx.number && !kept.outbox.length)) {
      store = fromPage();
      save();
      return false;
    }
    store = kept;
    store.sent = store.sent || [];
    store.undo = store.undo || null;
    if (held || !store.conflict) {
      store.conflict = heldElsewhere();
    }
    return true;
  }

  // -- the engine --------------------------------------------------------------------------
  function ask(message) {
    return new Promise(function (resolve) {
      var id = nextId++;
      requests[id] = resolve;
      worker.postMessage({ id: id, message: message });
    });
  }

  function openEngine() {
    return ask({
      op: "open",
      head: ctx.head,
      state: store.state,
      plays: ctx.plays,
      draft: store.draft,
    }).then(function (answer) {
      if (answer.fatal) {
        throw new Error(answer.fatal.message);
      }
      view = answer;
      // Taps the page had written down but the engine had not answered before a reload.
      var journal = store.journal.slice();
      store.journal = [];
      return journal.reduce(function (done, message) {
        return done.then(function () {
          return step(message, true);
        });
      }, Promise.resolve());
    });
  }

  function step(message, replay) {
    if (!replay) {
      store.journal.push(message);
      save(); // the tap is kept before anything else happens
    }
    return ask(message).then(function (answer) {
      store.journal = store.journal.filter(function (m) {
        return m !== message;
      });
      if (answer.fatal) {
        errors = [reason(answer.fatal)];
        save();
        return;
      }
      errors = answer.error ? [reason(answer.error)] : [];
      view = answer;
      if (answer.saved) {
        var hand = answer.saved;
        var body = Object.assign({ number: hand.number, device: device() }, hand.record);
        store.outbox.push({
          key: "hand-" + ctx.match + "-" + hand.number + "-" + uuid(),
          number: hand.number,
          body: body,
          points: hand.points,
          score: hand.score,
          status: hand.status,
        });
        store.state = hand.state;
        notice = savedNotice(hand);
        // The server empties its draft when it stores the hand.
        store.draftDirty = false;
        store.draftSteps = 0;
      } else if (!answer.error && message.op !== "view") {
        store.draftDirty = true;
        store.draftSteps += 1;
        notice = "";
      }
      if (!answer.error && message.op !== "view" && message.op !== "reset") {
        // As on the server: "undo the restart" is offered until the next step only.
        store.undo = null;
      }
      if (!answer.over) {
        store.number = answer.number;
        store.draft = answer.draft;
      }
      save();
    });
  }

  function tap(message) {
    queue = queue.then(function () {
      return step(message, false).then(function () {
        render();
        schedule(message.op === "save" ? 0 : DRAFT_DELAY_MS);
      });
    });
    return queue;
  }

  // -- talking to the server ---------------------------------------------------------------
  function csrf() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    if (input) {
      return input.value;
    }
    var match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function api(method, url, body, key) {
    var headers = {
      "Content-Type": "application/json",
      Accept: "application/json",
      "X-CSRFToken": csrf(),
      "Accept-Language": document.documentElement.lang || "en",
    };
    if (key) {
      headers["Idempotency-Key"] = key;
    }
    if (ctx.auth) {
      // A player's phone keeps the score through his team's link: its token is the
      // API's credentials (api.teamlink), in this header only.
      headers.Authorization = ctx.auth;
    }
    return fetch(url, {
      method: method,
      headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    }).then(function (response) {
      return response
        .json()
        .catch(function () {
          return {};
        })
        .then(function (data) {
          return { status: response.status, data: data };
        });
    });
  }

  function message(answer) {
    var error = (answer.data && answer.data.error) || {};
    return error.message || String(answer.status);
  }

  function schedule(delay) {
    clearTimeout(draftTimer);
    draftTimer = setTimeout(sync, delay);
  }

  function retryLater() {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(function () {
      retryTimer = null;
      sync();
    }, retryMs);
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  }

  function transient(answer) {
    return answer.status >= 500 || answer.status === 429 || answer.status === 0;
  }

  function sync() {
    if (store.conflict) {
      return Promise.resolve();
    }
    if (syncing) {
      // A hand saved while the previous draft was on its way would otherwise wait in the
      // outbox for the referee's next tap, and the match's last hand has no next tap.
      syncAgain = true;
      return Promise.resolve();
    }
    syncing = true;
    syncAgain = false;
    return sendHands()
      .then(function (more) {
        return more ? sendDraft() : false;
      })
      .then(
        function (done) {
          reachable = true;
          if (done) {
            retryMs = 1000;
          }
        },
        function () {
          // A network error: the server is out of reach. Everything stays kept.
          reachable = false;
          retryLater();
        }
      )
      .then(function () {
        syncing = false;
        save();
        render();
        // The match ended on this device: once its last hand is on the server, the server's
        // page (the result, who confirms it) replaces the sheet drawn while it was played,
        // which still said "in progress, 0–0". Only after sending a hand: never a loop.
        if (sentHands && view && view.over && !store.outbox.length && !store.conflict && !navigating) {
          navigating = true;
          window.location.reload();
        }
        sentHands = false;
        // Waiting to retry (unreachable, or the server busy): the retry timer sends it all,
        // backing off, so never sooner here.
        if (syncAgain && retryTimer === null && !navigating) {
          schedule(0);
        }
        syncAgain = false;
      });
  }

  function sendHands() {
    if (!store.outbox.length) {
      return Promise.resolve(true);
    }
    var item = store.outbox[0];
    return api("POST", ctx.urls.hands, item.body, item.key).then(function (answer) {
      reachable = true;
      if (answer.status === 200 || answer.status === 201) {
        store.outbox.shift();
        sentHands = true;
        store.sent.push({
          number: item.number,
          points: answer.data.points || item.points,
          score: answer.data.score || item.score,
          status: answer.data.status || item.status,
        });
        save();
        return sendHands();
      }
      if (transient(answer)) {
        retryLater();
        return false;
      }
      // Refused: shown to the referee, and the hand kept until he decides. Refused because
      // another device holds the match: he may take it over, and the hand is sent then.
      var code = answer.data && answer.data.error && answer.data.error.code;
      if (code === "draft_other_device") {
        store.conflict = { code: "other_device", message: message(answer) };
        notice = ""; // never "saved" beside "refused": the prompt says what happens
        return false;
      }
      store.conflict = { code: "hand", message: fmt(L.refused, { message: message(answer) }) };
      return false;
    });
  }

  function sendDraft() {
    if (!store.draftDirty || !ctx.urls.draft) {
      return Promise.resolve(true);
    }
    var body = {
      number: store.number,
      record: store.undo ? Object.assign({}, store.draft, { undo: store.undo }) : store.draft,
      device: device(),
      revision: store.revision,
      takeover: false, // only takeOver() takes the match, when the referee says so
    };
    var steps = store.draftSteps;
    return api("PUT", ctx.urls.draft, body).then(function (answer) {
      var code = answer.data && answer.data.error && answer.data.error.code;
      if (answer.status === 200) {
        store.revision = answer.data.revision;
        // Never below zero: a hand saved while this draft was on its way emptied the count.
        store.draftSteps = Math.max(0, store.draftSteps - steps);
        store.draftDirty = store.draftSteps > 0;
        return !store.draftDirty;
      }
      if (answer.status === 404 || answer.status === 405) {
        // A server without drafts: the hand is kept here until it is saved.
        store.draftDirty = false;
        store.draftSteps = 0;
        return true;
      }
      if (transient(answer)) {
        retryLater();
        return false;
      }
      if (code === "draft_stale") {
        // This tablet's own older revision (a page kept offline): take the server's
        // number and send this tablet's hand again, which is the latest.
        return api("GET", ctx.urls.draft).then(function (current) {
          var holder = current.status === 200 ? current.data.device : null;
          if (holder === device() || holder === "") {
            store.revision = current.data.revision;
            return sendDraft();
          }
          store.conflict = { code: "other_device", message: L.other_device };
          return false;
        });
      }
      if (code === "draft_other_device") {
        store.conflict = { code: "other_device", message: L.other_device };
        return false;
      }
      store.conflict = { code: "draft", message: fmt(L.refused, { message: message(answer) }) };
      return false;
    });
  }

  function takeOver() {
    // This device takes the match over from the one holding it, from the hand as the
    // server has it now (the page without script takes the draft as it showed it): read
    // the draft, put it back as this device's (``takeover`` at its revision), then go on
    // from it; a hand this tablet saved meanwhile is sent once it holds the match.
    var number = store.outbox.length ? store.outbox[0].number : store.number;
    return api("GET", ctx.urls.draft)
      .then(function (current) {
        if (current.status !== 200) {
          store.conflict = { code: "other_device", message: message(current) };
          return false;
        }
        var now = current.data;
        if (now.number !== number && !store.outbox.length) {
          // The match went on elsewhere (a hand was saved there): the page as it is now.
          localStorage.removeItem(KEY);
          navigating = true;
          window.location.reload();
          return false;
        }
        var body = {
          number: now.number,
          record: now.record,
          device: device(),
          revision: now.revision,
          takeover: true,
        };
        return api("PUT", ctx.urls.draft, body).then(function (answer) {
          if (answer.status !== 200) {
            // Changed again meanwhile, or refused: said, and the prompt stays.
            store.conflict = { code: "other_device", message: message(answer) };
            return false;
          }
          store.revision = answer.data.revision;
          store.conflict = null;
          notice = L.taken_over;
          if (store.outbox.length) {
            return true; // the saved hands go first; the next hand starts afresh
          }
          store.draft = now.record;
          store.draftDirty = false;
          store.draftSteps = 0;
          store.undo = null;
          return ask({ op: "open", head: ctx.head, state: store.state, plays: ctx.plays, draft: store.draft })
            .then(function (answer) {
              if (!answer.fatal) {
                view = answer;
              }
              return true;
            });
        });
      })
      .then(
        function (taken) {
          reachable = true;
          save();
          render();
          return taken ? sync() : null;
        },
        function () {
          reachable = false; // out of reach: nothing changed, the prompt stays
          render();
        }
      );
  }

  // -- drawing -------------------------------------------------------------------------------
  function waiting() {
    return store.outbox.length + (store.draftDirty ? store.draftSteps : 0) + store.journal.length;
  }

  function indicator() {
    var node = document.getElementById("tablet-sync");
    if (!node) {
      return;
    }
    var count = waiting();
    var offline = !navigator.onLine || !reachable;
    var state = offline ? "offline" : count ? "pending" : "saved";
    node.hidden = false;
    node.className = "sync sync--" + state;
    node.setAttribute("data-sync", state);
    node.setAttribute("data-count", String(count));
    // The server's markup (a coloured dot, then the words) is kept: only the words change.
    var text = node.querySelector(".sync__text");
    if (!text) {
      node.replaceChildren(el("span", { class: "sync__dot", "aria-hidden": "true" }), " ");
      text = node.appendChild(el("span", { class: "sync__text" }));
    }
    if (offline) {
      text.textContent = !count
        ? L.sync_offline_none
        : count === 1
          ? L.sync_offline_one
          : fmt(L.sync_offline, { count: count });
    } else if (count) {
      text.textContent = count === 1 ? L.sync_pending_one : fmt(L.sync_pending, { count: count });
    } else {
      text.textContent = L.sync_saved;
    }
  }

  function eventButton(action, extra) {
    var side = action.side;
    var classes = "big-button" + (side ? " side-" + side : " big-button--neutral");
    return el("button", {
      class: classes + (extra || ""),
      type: "button",
      "data-event": JSON.stringify(action.event),
      text: describe(action.event, partOrder()),
    });
  }

  function shortLabel(ev) {
    // A call, an answer or a mazo without its player, as referees.entry.short_label: the
    // button sits after the player's name; its whole sentence is its accessible name.
    if ("call" in ev) {
      return L.call_names[ev.call] || ev.call;
    }
    if ("answer" in ev) {
      return L.answer_names[ev.answer] || ev.answer;
    }
    if ("mazo" in ev) {
      return L.to_the_mazo;
    }
    return describe(ev, partOrder());
  }

  function callButton(action) {
    var label = describe(action.event, partOrder());
    return el("button", {
      class: "call-button side-" + action.side + (action.group === "answer" ? " call-button--answer" : ""),
      type: "button",
      "data-event": JSON.stringify(action.event),
      "aria-label": label,
      title: label,
      text: shortLabel(action.event),
    });
  }

  function partOrder() {
    // The players of the pica-pica pair being entered (null in a whole hand).
    return view.pairs && view.parts.length ? view.parts[view.parts.length - 1].order : null;
  }

  function group(legend, actions, extra) {
    if (!actions.length) {
      return null;
    }
    return el("fieldset", { class: "entry-group entry-group--row" + (extra || "") }, [
      el("legend", { text: legend }),
      el("div", { class: "button-row" }, actions.map(function (a) {
        return eventButton(a);
      })),
    ]);
  }

  function pointsText(points) {
    if (view && view.gallo && view.sides) {
      // A gallo's hand: its two sides (the gallo, the pair) by their players, as the server.
      return L.points_label + " " + Object.keys(view.sides).sort().map(function (side) {
        return sidePlayers(side) + " " + points[side];
      }).join(" – ");
    }
    return fmt(L.points, {
      team_a: ctx.teams.A,
      a: points.A,
      b: points.B,
      team_b: ctx.teams.B,
    });
  }

  function summary() {
    var box = el("div", { class: "hand-summary", "aria-live": "polite" }, [
      el("h3", { text: L.so_far }),
    ]);
    view.parts.forEach(function (part, index) {
      if (view.pairs) {
        box.appendChild(
          el("h4", {
            text: fmt(L.pair, { number: index + 1, players: part.order.map(name).join(" – ") }),
          })
        );
      }
      if (part.events.length) {
        box.appendChild(
          el("ol", { class: "hand-summary__events" }, part.events.map(function (ev) {
            return el("li", { text: describe(ev, view.pairs ? part.order : null) });
          }))
        );
      } else {
        box.appendChild(el("p", { class: "muted", text: L.nothing_yet }));
      }
      if (part.outcome) {
        box.appendChild(el("p", { class: "hand-summary__points", text: pointsText(part.outcome.points) }));
      }
    });
    return box;
  }

  function pairsChoice() {
    var players = view.order;
    function select(label, id, chosen) {
      return el("div", { class: "field" }, [
        el("label", { for: id, text: label }),
        el("select", { id: id }, players.map(function (p) {
          return el("option", { value: p, selected: p === chosen, text: name(p) });
        })),
      ]);
    }
    var rows = view.default_pairs.map(function (pair, i) {
      return el("div", { class: "pair-row", "data-pair": String(i) }, [
        select(fmt(L.pair_mano, { number: i + 1 }), "tablet-pair-" + i + "-0", pair[0]),
        select(fmt(L.pair_rival, { number: i + 1 }), "tablet-pair-" + i + "-1", pair[1]),
      ]);
    });
    return el("div", { class: "form pairs-form" }, [el("p", { text: L.choose_pairs })].concat(rows, [
      el("button", { class: "button big-button", type: "button", "data-op": "pairs", text: L.start_pairs }),
    ]));
  }

  function settleByPoints() {
    var what = view.settlement;
    var fields = view.declarers.map(function (p) {
      var id = "tablet-points-" + p;
      return el("div", { class: "field" }, [
        el("label", { for: id, text: name(p) }),
        el("input", { id: id, type: "number", min: "0", max: "40", inputmode: "numeric", "data-player": p }),
      ]);
    });
    return el("div", { class: "form points-form entry-group" }, [
      el("p", { class: "entry-note", text: what === "flor" ? L.settle_points_flor : L.settle_points_envido }),
      el("div", { class: "points-grid" }, fields),
      el("button", { class: "button", type: "button", "data-op": "points", text: L.settle_by_points }),
    ]);
  }

  function refereeTools() {
    var sides = Object.keys(ctx.teams).sort().map(function (side, i) {
      var id = "tablet-penalty-" + side;
      return el("label", { for: id }, [
        el("input", { id: id, type: "radio", name: "tablet-penalty-side", value: side, checked: i === 0 }),
        " " + ctx.teams[side],
      ]);
    });
    var children = [
      el("summary", { text: L.penalty_or_void }),
      el("div", { class: "form" }, [
        el("h3", { text: L.penalty_title }),
        el("div", { class: "field field--radio" }, [el("p", { text: L.penalty_side })].concat(sides)),
        el("div", { class: "field" }, [
          el("label", { for: "tablet-penalty-points", text: L.penalty_points }),
          el("input", { id: "tablet-penalty-points", type: "number", min: "1", max: "99", value: "1" }),
        ]),
        el("div", { class: "field" }, [
          el("label", { for: "tablet-penalty-reason", text: L.reason }),
          el("input", { id: "tablet-penalty-reason", type: "text", maxlength: "200" }),
        ]),
        el("button", { class: "button", type: "button", "data-op": "penalty", text: L.award }),
      ]),
    ];
    if (view.can_void) {
      children.push(
        el("div", { class: "form" }, [
          el("h3", { text: L.void_title }),
          el("div", { class: "field" }, [
            el("label", { for: "tablet-void-reason", text: L.reason }),
            el("input", { id: "tablet-void-reason", type: "text", maxlength: "200" }),
          ]),
          el("button", { class: "button button--danger", type: "button", "data-op": "void", text: L.void_hand }),
        ])
      );
    }
    return el("details", { class: "referee-tools entry-tools__more" }, children);
  }

  function resetBoxes() {
    // "Start the hand again" is asked first (a tap by mistake must not wipe the hand), and
    // once done can be undone until the next step: the server page's two boxes.
    if (confirmingReset) {
      return el("div", { class: "confirm", role: "alertdialog", "aria-labelledby": "confirm-reset" }, [
        el("p", { id: "confirm-reset", class: "confirm__question", text: fmt(L.reset_question, { number: view.number }) }),
        el("div", { class: "button-row" }, [
          el("button", { class: "big-button button--danger", type: "button", "data-op": "reset_confirm", text: L.reset_confirm }),
          el("button", { class: "big-button big-button--neutral", type: "button", "data-op": "reset_keep", text: L.keep }),
        ]),
      ]);
    }
    if (store.undo) {
      return el("div", { class: "confirm" }, [
        el("p", { class: "confirm__question", text: L.reset_done }),
        el("button", { class: "big-button big-button--neutral", type: "button", "data-op": "reset_undo", text: L.reset_undo }),
      ]);
    }
    return null;
  }

  function playGrid(plays) {
    // Card by card: the cards the player to play may play, a row per suit (the button
    // shows the rank, its label the whole card), as referees.entry.Entry.play_grid.
    if (!plays.length) {
      return null;
    }
    var rows = "EBOC".split("").map(function (suit) {
      var mine = plays.filter(function (a) {
        return a.event.play.slice(-1) === suit;
      });
      if (!mine.length) {
        return null;
      }
      var suitName = L.suits[suit] || suit;
      return el("div", { class: "card-row", role: "group", "aria-label": suitName }, [
        el("span", { class: "card-row__suit", text: suitName }),
      ].concat(mine.map(function (a) {
        var label = cardName(a.event.play);
        return el("button", {
          class: "card-button card-button--" + suit,
          type: "button",
          "data-event": JSON.stringify(a.event),
          "aria-label": label,
          title: label,
          text: a.event.play.slice(0, -1),
        });
      })));
    });
    return el("fieldset", { class: "entry-group entry-group--play" }, [
      el("legend", { text: fmt(L.to_play, { player: view.to_play ? name(view.to_play) : "" }) }),
    ].concat(rows));
  }

  function sideColumns(calls, teamMazo, answering) {
    // The two sides keep their places (A left, B right) from hand to hand; the mano is
    // marked, not moved. Who is in, mano or at the mazo is the engine's word (view.sides).
    // At a table of three the columns are the hand's two sides: the gallo and the pair.
    var columns = Object.keys(view.sides).sort().map(function (side) {
      var title = (view.sides[side] || []).map(function (seat) {
        return ctx.teams[view.team[seat.player]] || name(seat.player);
      }).filter(function (team, i, all) {
        return all.indexOf(team) === i;  // a team's players share its name
      }).join(" · ") || ctx.teams[side];
      var cards = (view.sides[side] || []).map(function (seat) {
        var label = [name(seat.player)];
        if (seat.mano) {
          label.push(" ", el("span", { class: "mano-mark", text: L.mano_mark }));
        }
        if (view.gallo && seat.player === view.gallo) {
          label.push(" ", el("span", { class: "gallo-mark", text: L.gallo_mark }));
        }
        if (seat.folded) {
          label.push(" ", el("span", { class: "muted", text: "· " + L.at_the_mazo }));
        }
        var classes = "player-card player-card--" + side;
        classes += (seat.mano ? " player-card--mano" : "") + (seat.folded ? " player-card--folded" : "");
        var mine = calls.filter(function (a) {
          return a.player === seat.player;
        });
        var card = [el("p", { class: "player-card__name" }, label)];
        if (mine.length) {
          card.push(el("div", { class: "player-card__calls" }, mine.map(callButton)));
        }
        return el("div", { class: classes, "data-player": seat.player }, card);
      });
      var mazo = teamMazo.filter(function (a) {
        return a.side === side;
      })[0];
      // The team's name and, beside it, its mazo in one tap (the list of the mazo events
      // of the side's players still in).
      var head = el("div", { class: "column-head" }, [
        el("p", { class: "side-column__team", text: title }),
        mazo ? el("button", {
          class: "big-button big-button--mazo side-" + side,
          type: "button",
          "data-event": JSON.stringify(mazo.event),
          text: fmt(L.team_mazo, { team: title }),
        }) : null,
      ]);
      return el("div", { class: "side-column side-column--" + side, "data-side": side }, [head].concat(cards));
    });
    // Each player's card holds all he may do: his answers first, then his calls and mazo.
    return el("fieldset", { class: "entry-group" + (answering ? " entry-group--answer" : "") }, [
      el("legend", { text: answering ? L.answer_call : L.calls }),
      el("div", { class: "sides" }, columns),
    ]);
  }

  function cardsDealt() {
    // Card by card: the cards dealt, optional (the engine checks the plays against them).
    var players = Object.keys(view.sides).sort().reduce(function (all, side) {
      return all.concat(view.sides[side]);
    }, []).map(function (seat) {
      return seat.player;
    });
    var fields = players.map(function (p) {
      var id = "id_cards-" + p;
      return el("div", { class: "field" }, [
        el("label", { for: id, text: name(p) }),
        el("input", {
          id: id,
          type: "text",
          maxlength: "20",
          autocapitalize: "characters",
          placeholder: "1E 7O 4C",
          "data-player": p,
          value: (view.given_cards[p] || []).join(" "),
        }),
      ]);
    });
    // Folded: a tool used now and then, one tap away (the server page's details).
    return el("details", { class: "entry-group referee-tools" }, [
      el("summary", { text: L.cards_dealt }),
      el("div", { class: "form cards-form" }, [
        el("p", { class: "muted", text: L.cards_help }),
        el("div", { class: "points-grid" }, fields),
        el("button", { class: "button", type: "button", "data-op": "cards", text: L.keep_cards }),
      ]),
    ]);
  }

  function heldPrompt() {
    // Another device holds the match: no step is entered here, whatever this tablet keeps,
    // until the referee takes the match over (the server page's held section): the hand
    // so far is shown read only.
    var buttons = [
      el("button", { class: "big-button big-button--save", type: "button", "data-op": "takeover", text: L.take_over }),
    ];
    // What this tablet entered since the other device took the match (refused by the
    // server): dropped by a take-over, which goes on from the server's hand.
    var own = store.outbox.length || store.journal.length || store.draftDirty;
    if (own) {
      buttons.push(el("button", { class: "button button--danger", type: "button", "data-op": "discard", text: L.discard }));
    }
    var nodes = [
      el("h2", {}, [fmt(L.hand, { number: store.outbox.length ? store.outbox[0].number : view.number })]),
      el("div", { class: "tablet-alert", role: "alert" }, [
        el("p", { class: "held__note", text: store.conflict.message }),
        el("p", { class: "muted", text: L.take_over_note }),
      ].concat(buttons)),
    ];
    var entered = (view.parts || []).some(function (part) {
      return part.events.length;
    });
    if (!own && !view.over && entered) {
      nodes.push(summary()); // the holder's hand so far, as the server has it
    }
    return nodes;
  }

  function entry() {
    var nodes = [];
    if (store.conflict && store.conflict.code === "other_device") {
      return heldPrompt();
    }
    if (store.conflict) {
      nodes.push(el("div", { class: "tablet-alert", role: "alert" }, [
        el("p", { text: store.conflict.message }),
        el("button", { class: "button button--danger", type: "button", "data-op": "discard", text: L.discard }),
      ]));
    }
    if (errors.length) {
      nodes.push(el("ul", { class: "entry-errors", role: "alert" }, errors.map(function (e) {
        return el("li", { text: e });
      })));
    }
    if (view.over) {
      nodes.push(el("p", { class: "empty-state", text: L.match_over }));
      return nodes;
    }
    var title = el("h2", {}, [fmt(L.hand, { number: view.number })]);
    if (view.kind === "pica_pica") {
      title.appendChild(document.createTextNode(" "));
      title.appendChild(el("span", { class: "tag", text: L.pica_pica }));
    }
    title.appendChild(document.createTextNode(" "));
    title.appendChild(el("span", { class: "muted entry__mano", text: "· " + fmt(L.mano, { name: name(view.mano) }) }));
    // The title and, beside it, the tools that undo (the server page's entry-head).
    var head = el("div", { class: "entry-head" }, [title]);
    if (!view.choosing_pairs) {
      head.appendChild(el("div", { class: "entry-tools" }, [
        el("button", { class: "button button--secondary", type: "button", "data-op": "undo", text: L.undo }),
        el("button", { class: "button button--secondary", type: "button", "data-op": "reset", text: L.reset }),
        refereeTools(),
      ]));
    }
    nodes.push(head);
    nodes.push(resetBoxes());
    if (view.choosing_pairs) {
      nodes.push(pairsChoice());
      return nodes;
    }
    if (view.pairs) {
      var current = view.parts[view.parts.length - 1];
      nodes.push(el("p", { class: "pair-now" }, [
        fmt(L.pair_of, { number: view.parts.length, total: view.pairs.length }) + ": ",
        el("strong", { text: current.order.map(name).join(" – ") }),
      ]));
    }
    nodes.push(summary());
    var form = el("div", { class: "entry-form" });
    if (view.ready) {
      form.appendChild(el("div", { class: "entry-group entry-group--save" }, [
        el("p", { class: "entry-note", text: L.decided }),
        el("button", { class: "big-button big-button--save", type: "button", "data-op": "save", text: L.save }),
      ]));
    } else if (view.can_move_on) {
      form.appendChild(el("div", { class: "entry-group entry-group--save" }, [
        el("p", { class: "entry-note", text: L.pair_decided }),
        el("button", { class: "big-button big-button--save", type: "button", "data-op": "next_pair", text: L.next_pair }),
      ]));
    }
    var by = { mestre: [], answer: [], settle: [], trick: [], play: [], call: [], team_mazo: [] };
    view.actions.forEach(function (a) {
      by[a.group].push(a);
    });
    // The server page's order: mestre, answer, settle, the cards, tricks, then the sides.
    [
      group(L.mestre, by.mestre),
      group(view.settlement === "flor" ? L.who_flor : L.who_envido, by.settle, " entry-group--settle"),
      playGrid(by.play),
      group(L.tricks, by.trick),
      view.parts.length ? sideColumns(by.answer.concat(by.call), by.team_mazo, by.answer.length) : null,
    ].forEach(function (node) {
      if (node) {
        form.appendChild(node);
      }
    });
    nodes.push(form);
    if (ctx.plays && view.parts.length) {
      nodes.push(cardsDealt());
    }
    if (view.settlement && view.declarers.length) {
      nodes.push(settleByPoints());
    }
    return nodes;
  }

  function scoreboard() {
    if (view.over || !view.state) {
      return;
    }
    Object.keys(view.start_score).forEach(function (side) {
      var points = document.querySelector(".scoreboard__points[data-side=" + side + "]");
      if (points) {
        points.textContent = String(view.start_score[side]);
      }
    });
    // Malas/buenas or the mestre, as the engine names each side's phase (the page drew
    // them for the hand it was served with; this tablet may have saved hands since).
    Object.keys(view.start_score).forEach(function (side) {
      var half = document.querySelector(".scoreboard__half[data-half-side=" + side + "]");
      var phase = view.phases ? view.phases[side] : null;
      var words = phase && ctx.phase_labels ? ctx.phase_labels[phase[0]] : null;
      var text = words ? words[phase[0] === "mestre" ? 0 : phase[1]] || "" : "";
      if (half) {
        half.textContent = text;
        half.hidden = !text;
      }
      var box = document.querySelector("[data-scoreboard-side=" + side + "]");
      if (box) {
        box.classList.toggle("scoreboard__side--mestre", Boolean(phase) && phase[0] === "mestre");
      }
    });
  }

  function seating() {
    // The seating list marks the mano of the hand being entered, as the server draws it.
    document.querySelectorAll(".seat-list .seat[data-player]").forEach(function (seat) {
      var mano = !view.over && seat.getAttribute("data-player") === view.mano;
      seat.classList.toggle("seat--mano", mano);
      var mark = seat.querySelector("strong");
      if (mano && !mark) {
        seat.appendChild(document.createTextNode(" "));
        seat.appendChild(el("strong", { text: "· " + L.mano_mark }));
      } else if (!mano && mark) {
        mark.remove();
      }
    });
  }

  function columnValues(values) {
    // The hands table's columns as the server draws them (a, b and, at a table of three,
    // c): a fijo pair's two players both show the engine's side B; the API answers with
    // every column already, the engine with its sides.
    return (ctx.columns || []).map(function (column) {
      return column.column in values ? values[column.column] : values[column.side];
    });
  }

  function savedNotice(hand) {
    var points = columnValues(hand.points);
    var names = (ctx.columns || []).map(function (column) {
      return column.name;
    });
    if (points.length === 3) {
      return fmt(L.saved_hand_three, {
        number: hand.number,
        team_a: names[0],
        a: points[0],
        team_b: names[1],
        b: points[1],
        team_c: names[2],
        c: points[2],
      });
    }
    return fmt(L.saved_hand, {
      number: hand.number,
      team_a: names[0],
      a: points[0],
      b: points[1],
      team_b: names[1],
    });
  }

  function handsTable() {
    var panel = document.getElementById("hands-recorded");
    if (!panel) {
      return;
    }
    var body = panel.querySelector("table.hands tbody");
    if (!body && !store.sent.length && !store.outbox.length) {
      return;
    }
    if (!body) {
      var head = el("tr", {}, ["#", L.points_column, L.score_column, L.status_column].map(function (t, i) {
        return el("th", { scope: "col", class: i < 3 ? "num" : null, text: t });
      }));
      var table = el("table", { class: "table hands" }, [el("thead", {}, [head]), el("tbody")]);
      var empty = panel.querySelector(".empty-state");
      if (empty) {
        empty.replaceWith(el("div", { class: "table-scroll" }, [table]));
      } else {
        panel.appendChild(table);
      }
      body = table.querySelector("tbody");
    }
    body.querySelectorAll("tr[data-tablet]").forEach(function (row) {
      row.remove();
    });
    var shown = {};
    body.querySelectorAll("tr.hand-row td:first-child").forEach(function (cell) {
      shown[cell.textContent.trim()] = true;
    });
    function row(hand, status, pending) {
      if (shown[String(hand.number)]) {
        return;
      }
      body.appendChild(el("tr", { class: "hand-row", "data-tablet": pending ? "pending" : "sent" }, [
        el("td", { class: "num", text: String(hand.number) }),
        el("td", { class: "num", text: columnValues(hand.points).join(" – ") }),
        el("td", { class: "num", text: columnValues(hand.score).join(" – ") }),
        el("td", { text: status }),
      ]));
    }
    store.sent.forEach(function (hand) {
      row(hand, L.hand_status[hand.status] || hand.status, false);
    });
    store.outbox.forEach(function (hand) {
      row(hand, L.waiting, true);
    });
  }

  // What the referee is typing survives a redraw for the same step (a sync ending, a step
  // refused): the penalty's points and reason, the void's reason, declared points, an open
  // "Penalty or void", the field with the keyboard. A step taken starts them afresh.
  var drawnFor = null;

  function keptFields() {
    var kept = { values: {}, checked: {}, open: [], focus: null };
    section.querySelectorAll("input[id], select[id], textarea[id]").forEach(function (field) {
      if (field.type === "radio" || field.type === "checkbox") {
        kept.checked[field.id] = field.checked;
      } else {
        kept.values[field.id] = field.value;
      }
    });
    section.querySelectorAll("details[open]").forEach(function (details) {
      kept.open.push(details.className);
    });
    var active = document.activeElement;
    if (active && active.id && section.contains(active)) {
      kept.focus = active.id;
    }
    return kept;
  }

  function restoreFields(kept) {
    section.querySelectorAll("input[id], select[id], textarea[id]").forEach(function (field) {
      if (field.id in kept.checked) {
        field.checked = kept.checked[field.id];
      } else if (field.id in kept.values) {
        field.value = kept.values[field.id];
      }
    });
    section.querySelectorAll("details").forEach(function (details) {
      if (kept.open.indexOf(details.className) >= 0) {
        details.open = true;
      }
    });
    var focused = kept.focus ? document.getElementById(kept.focus) : null;
    if (focused && section.contains(focused)) {
      focused.focus();
    }
  }

  function flash() {
    // The tablet's notice (a hand saved, the match taken over) where the server's page has
    // its flash, in the header's row (templates/referees/sheet.html), so the hand keeps the
    // screen; the server's flash stays until a notice takes its place.
    var slot = document.getElementById("sheet-messages");
    if (!slot) {
      return;
    }
    if (notice) {
      slot.replaceChildren(el("ul", { class: "messages", role: "status" }, [
        el("li", { class: "message message--success tablet-notice", text: notice }),
      ]));
    } else if (slot.querySelector(".tablet-notice")) {
      slot.replaceChildren();
    }
  }

  function render() {
    indicator();
    flash();
    if (!engineReady || !view) {
      return;
    }
    var step = JSON.stringify([view.number, view.draft]);
    var kept = step === drawnFor ? keptFields() : null;
    var nodes = entry().filter(Boolean);
    section.replaceChildren.apply(section, nodes);
    if (kept) {
      restoreFields(kept);
    }
    drawnFor = step;
    section.setAttribute("data-engine", "browser");
    // The section is the server's held one or its entry, as this tablet stands now.
    var held = Boolean(store.conflict && store.conflict.code === "other_device");
    section.classList.toggle("held", held);
    section.classList.toggle("entry", !held);
    if (held) {
      section.setAttribute("data-held", "other");
    } else {
      section.removeAttribute("data-held");
    }
    scoreboard();
    seating();
    handsTable();
  }

  // -- the referee's taps --------------------------------------------------------------------
  function onClick(event) {
    if (!engineReady) {
      return;
    }
    var button = event.target.closest("#entry [data-event], #entry [data-op]");
    if (!button) {
      return;
    }
    event.preventDefault();
    var op = button.getAttribute("data-op");
    if (!op) {
      confirmingReset = false;
      tap({ op: "event", event: JSON.parse(button.getAttribute("data-event")) });
      return;
    }
    if (op === "reset") {
      confirmingReset = true;
      render();
      // The question is drawn above the hand (as the server's page, which jumps to
      // #entry): brought into view, or the tap at the bottom would seem to do nothing.
      var question = section.querySelector(".confirm");
      if (question) {
        question.scrollIntoView({ block: "center" });
      }
      return;
    }
    confirmingReset = false;
    if (op === "reset_keep") {
      render();
    } else if (op === "reset_confirm") {
      // Kept (in this tablet's storage and the server's draft) to undo the restart.
      store.undo = view.draft;
      tap({ op: "reset" });
    } else if (op === "reset_undo") {
      tap({ op: "restore", draft: store.undo });
    } else if (op === "undo" || op === "save" || op === "next_pair") {
      tap({ op: op });
    } else if (op === "cards") {
      var cards = {};
      section.querySelectorAll(".cards-form input[data-player]").forEach(function (input) {
        // Written as the server's form takes them: "1E 7O 4C", commas allowed.
        var given = input.value.replace(/,/g, " ").toUpperCase().split(/\s+/).filter(Boolean);
        if (given.length) {
          cards[input.getAttribute("data-player")] = given;
        }
      });
      tap({ op: "cards", cards: cards });
    } else if (op === "pairs") {
      var pairs = Array.prototype.map.call(section.querySelectorAll("[data-pair]"), function (row) {
        return Array.prototype.map.call(row.querySelectorAll("select"), function (s) {
          return s.value;
        });
      });
      tap({ op: "pairs", pairs: pairs });
    } else if (op === "points") {
      var points = {};
      section.querySelectorAll(".points-form input[data-player]").forEach(function (input) {
        if (input.value !== "") {
          points[input.getAttribute("data-player")] = parseInt(input.value, 10);
        }
      });
      var ev = {};
      ev[view.settlement] = points;
      tap({ op: "event", event: ev });
    } else if (op === "penalty") {
      var side = section.querySelector("input[name=tablet-penalty-side]:checked");
      tap({
        op: "event",
        event: {
          penalty: {
            to: side ? side.value : "A",
            points: parseInt(section.querySelector("#tablet-penalty-points").value, 10) || 0,
            reason: section.querySelector("#tablet-penalty-reason").value.trim(),
          },
        },
      });
    } else if (op === "void") {
      tap({ op: "event", event: { void: section.querySelector("#tablet-void-reason").value.trim() } });
    } else if (op === "takeover") {
      takeOver();
    } else if (op === "discard") {
      if (window.confirm(L.discard_confirm)) {
        localStorage.removeItem(KEY);
        window.location.reload();
      }
    }
  }

  // -- starting up -------------------------------------------------------------------------------
  var ahead = adopt();
  // For the tests and bench/tablet.py: where the tablet stands.
  window.tanteoTablet = {
    loadMs: null,
    offline: false,
    failed: null, // why the engine could not start: the server-rendered flow goes on
    state: function () {
      return { ready: engineReady, waiting: waiting(), outbox: store.outbox.length, conflict: store.conflict };
    },
    sync: sync,
  };
  if (ahead) {
    // The page is older than what this tablet holds: its buttons would enter a stale hand.
    section.querySelectorAll("button").forEach(function (b) {
      b.disabled = true;
    });
  }
  document.addEventListener("submit", function () {
    navigating = true;
  });
  window.addEventListener("pageshow", function () {
    navigating = false;
  });
  document.addEventListener("click", onClick);
  window.addEventListener("online", function () {
    retryMs = 1000;
    sync();
  });
  window.addEventListener("offline", indicator);
  indicator();

  if ("serviceWorker" in navigator && ctx.urls.sw) {
    navigator.serviceWorker
      .register(ctx.urls.sw, { scope: ctx.urls.scope })
      .then(function () {
        return navigator.serviceWorker.ready;
      })
      .then(function (registration) {
        // Keep this page for a reload offline (its first visit came before the worker).
        var channel = new MessageChannel();
        channel.port1.onmessage = function (event) {
          window.tanteoTablet.offline = Boolean(event.data.kept);
        };
        registration.active.postMessage({ keep: ctx.urls.page }, [channel.port2]);
      })
      .catch(function () {
        // No service worker (a private window, an insecure origin): online only.
      });
  }
  if (!ctx.urls.pyodide) {
    return; // Pyodide not installed: the server-rendered flow only.
  }
  var started = performance.now();
  worker = new Worker(ctx.urls.worker, { type: "module" });
  worker.onmessage = function (event) {
    var data = event.data;
    if (data.ready) {
      window.tanteoTablet.loadMs = performance.now() - started;
      openEngine().then(
        function () {
          if (navigating) {
            return; // a server-rendered step is on its way: that page takes over
          }
          engineReady = true;
          if (ahead) {
            document.querySelectorAll("ul.messages").forEach(function (node) {
              node.remove();
            });
          }
          save();
          render();
          sync();
        },
        function (error) {
          window.tanteoTablet.failed = String(error);
          section.querySelectorAll("button").forEach(function (b) {
            b.disabled = false;
          });
        }
      );
    } else if (data.failed) {
      window.tanteoTablet.failed = data.failed;
      section.querySelectorAll("button").forEach(function (b) {
        b.disabled = false;
      });
    } else if (requests[data.id]) {
      var resolve = requests[data.id];
      delete requests[data.id];
      resolve(data.answer);
    }
  };
})();
