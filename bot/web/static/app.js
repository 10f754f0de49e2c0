// The web table: signs in with Telegram's init data (or as the local player of `tavolo web`),
// watches one table over a WebSocket, renders each version of the seat's view it is pushed, and
// sends the player's moves. The server is the truth: the page never decides a rule, it shows
// what the state offers and the reason when a move is refused (docs/web-protocol.md).

import { launchParams, startTelegram, haptic } from "./tg.js";
import { discordLaunch, discordSignIn } from "./discord.js";
import { setLocale, setTexts, serverTable, locale, t } from "./i18n.js";
import { setCardBase } from "./cards.js";
import { renderTable } from "./board.js";

const MAX_QUEUE = 12;
// The server sends the computers' moves a readable pace apart (docs/web-protocol.md); the page
// adds a pace of its own only when asked (?pace=ms).
const DEFAULT_PACE_MS = 0;
const LOG_LINES = 30;

const $ = (id) => document.getElementById(id);

const session = {
  params: {},
  token: null,
  user: null,
  table: null,
  version: null,
  state: null,
  ws: null,
  nextId: 1,
  pending: new Map(),
  queue: [],
  timer: null,
  lastShown: 0,
  pace: DEFAULT_PACE_MS,
  retries: 0,
  showNext: false,
  closed: false,
  ui: { selected: [], staged: [] },
  local: false,
  games: [],
  textsLocale: null,
  log: [],
  connected: null,
};

function query(name) {
  return new URLSearchParams(window.location.search).get(name);
}

function setStatus(text, kind) {
  const el = $("conn");
  el.textContent = text || "";
  el.dataset.kind = kind || "";
  el.hidden = !text;
}

export function toast(text, kind = "error") {
  const el = $("toast");
  el.textContent = text;
  el.dataset.kind = kind;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (el.hidden = true), 5000);
}

function fatal(text) {
  $("app").hidden = true;
  const el = $("notice");
  el.textContent = text;
  el.hidden = false;
}

async function postJson(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body || {}),
    credentials: "same-origin",
  });
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    data = null;
  }
  return { ok: response.ok, status: response.status, data };
}

/** Sign in: Telegram's signed init data when there is some, else the local player. */
async function signIn() {
  const initData = session.params.tgWebAppData;
  // Inside Discord (an Activity): Discord's sign-in instead of Telegram's.
  const discord = discordLaunch();
  const answer = discord
    ? await discordSignIn(discord, postJson, { join: !session.token })
    : initData
    ? await postJson("/api/auth/telegram", { init_data: initData })
    : await postJson("/api/auth/local", {});
  if (!answer.ok || !answer.data || !answer.data.token) {
    const reason = answer.data && answer.data.error;
    const err = new Error(reason || (initData ? t("authFailed") : t("noAuth")));
    err.status = answer.status;
    throw err;
  }
  session.token = answer.data.token;
  session.user = answer.data.user || null;
  session.local = Boolean(answer.data.local);
  session.games = answer.data.games || [];
  if (session.user && session.user.locale) setLocale(session.user.locale);
  await loadTexts(locale());
  if (answer.data.cards) setCardBase(answer.data.cards);
  // A link's own ?table= (a private chat's web_app button) first, then what the server
  // answered (the Mini App link's start_param, or the user's newest table).
  const table = query("table") ?? answer.data.table ?? session.params.tgWebAppStartParam ?? null;
  if (table !== null && table !== undefined && table !== "") session.table = table;
}

/** The chat's own words for the page and the cards' names (cached by the browser). */
async function loadTexts(code) {
  if (session.textsLocale === code) return;
  try {
    const response = await fetch(`/api/texts?locale=${encodeURIComponent(code)}`);
    if (response.ok) {
      setTexts(await response.json());
      session.textsLocale = code;
    }
  } catch (_) {
    /* the page's own words then */
  }
}

function wsUrl() {
  const proto = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${window.location.host}/ws?token=${encodeURIComponent(session.token)}`;
}

function send(frame) {
  if (session.ws && session.ws.readyState === WebSocket.OPEN) {
    session.ws.send(JSON.stringify(frame));
    return true;
  }
  return false;
}

function connect() {
  if (session.closed) return;
  clearTimeout(session.reconnectTimer);
  session.reconnectTimer = null;
  if (session.ws && session.ws.readyState <= 1) return; // connecting or open already
  const ws = new WebSocket(wsUrl());
  session.ws = ws;
  let opened = false;
  ws.onopen = () => {
    opened = true;
    session.retries = 0;
    setStatus("", "");
    if (session.table === null || session.table === undefined) showNewGame();
    else send({ type: "watch", table: tableValue(), since: session.version });
  };
  ws.onmessage = (event) => {
    let frame;
    try {
      frame = JSON.parse(event.data);
    } catch (_) {
      return;
    }
    onFrame(frame);
  };
  ws.onclose = (event) => {
    if (session.ws !== ws) return;
    session.ws = null;
    for (const [, pending] of session.pending) pending.button && (pending.button.disabled = false);
    session.pending.clear();
    document.body.classList.remove("busy");
    if (session.closed) return;
    setStatus(t("reconnecting"), "warn");
    const delay = Math.min(8000, 400 * 2 ** session.retries++);
    // A socket refused at the upgrade (an expired token answers 401) or a long absence: sign
    // in again before reconnecting.
    const reauth = !opened || event.code === 1008 || session.retries > 3;
    session.reconnectTimer = setTimeout(async () => {
      session.reconnectTimer = null;
      if (reauth) {
        try {
          await signIn();
        } catch (err) {
          if (err.status === 401 || err.status === 403) return fatal(err.message);
        }
      }
      connect();
    }, delay);
  };
}

function tableValue() {
  const n = Number(session.table);
  return Number.isInteger(n) && String(n) === String(session.table) ? n : session.table;
}

function onFrame(frame) {
  switch (frame.type) {
    case "state":
      enqueue(frame);
      break;
    case "uptodate":
      setStatus("", "");
      break;
    case "presence":
      if (String(frame.table) === String(session.table) && Array.isArray(frame.connected)) {
        session.connected = frame.connected;
        if (session.state) render();
      }
      break;
    case "ack": {
      const pending = session.pending.get(frame.id);
      session.pending.delete(frame.id);
      if (!session.pending.size) document.body.classList.remove("busy");
      if (pending && pending.onAck) pending.onAck();
      // A rematch opens a new table: follow it.
      if (frame.table !== undefined && frame.table !== null && String(frame.table) !== String(session.table)) {
        switchTable(frame.table);
      }
      break;
    }
    case "created":
      switchTable(frame.table);
      break;
    case "rematch":
      if (String(frame.table) === String(session.table) && frame.to !== undefined) {
        session.rematchTo = frame.to;
        if (session.state) render();
      }
      break;
    case "refused": {
      session.pending.delete(frame.id);
      if (!session.pending.size) document.body.classList.remove("busy");
      session.showNext = false;
      haptic("error");
      if (frame.id === undefined && !session.state) {
        // The table itself was refused (not yours, or no longer there).
        if (session.local) return showNewGame(frame.reason);
        return fatal(frame.reason || t("noTable"));
      }
      toast(frame.reason || t("refused"));
      break;
    }
    case "error":
      // "behind": the server drops a page that fell behind; it reconnects and resumes at once.
      if (frame.reason !== "behind") toast(frame.reason || frame.error || t("refused"));
      break;
    default:
      break;
  }
}

function switchTable(table) {
  session.table = table;
  session.version = null;
  session.state = null;
  session.queue = [];
  clearTimeout(session.timer);
  session.timer = null;
  session.ui = { selected: [], staged: [] };
  session.log = [];
  session.rematchTo = null;
  $("newgame").hidden = true;
  send({ type: "watch", table: tableValue(), since: null });
}

/**
 * States arriving in a burst (the computer's moves, or the versions missed while away) are shown
 * one at a time, `pace` ms apart; a state following the player's own move is shown at once.
 */
function enqueue(frame) {
  if (session.table === null || session.table === undefined) session.table = frame.table;
  // A late frame of the table the page just left (a rematch, a new local game).
  if (frame.table !== undefined && String(frame.table) !== String(session.table)) return;
  if (typeof frame.version === "number" && session.version !== null) {
    if (frame.version <= session.version && !frame.reset) return;
  }
  session.queue.push(frame);
  if (session.queue.length > MAX_QUEUE) session.queue.splice(0, session.queue.length - MAX_QUEUE);
  pump();
}

function pump() {
  if (session.timer || !session.queue.length) return;
  const wait = session.lastShown + session.pace - Date.now();
  if (wait > 0 && !session.showNext && session.queue.length < MAX_QUEUE) {
    session.timer = setTimeout(() => {
      session.timer = null;
      pump();
    }, wait);
    return;
  }
  const frame = session.queue.shift();
  session.showNext = false;
  show(frame);
  pump();
}

function show(frame) {
  session.version = frame.version ?? session.version;
  session.state = frame.state;
  session.connected = null;
  // The first state after a watch brings the recent lines, this version's among them.
  const events = Array.isArray(frame.events) ? frame.events : [];
  if (Array.isArray(frame.log)) {
    session.log = frame.log.slice();
    const tail = session.log.slice(-events.length || session.log.length);
    if (events.length && events.some((e, i) => e !== tail[i])) session.log.push(...events);
  } else session.log.push(...events);
  if (session.log.length > LOG_LINES) session.log.splice(0, session.log.length - LOG_LINES);
  session.lastShown = Date.now();
  render();
}

export function act(action, opts = {}) {
  const state = session.state;
  if (!state) return;
  const id = session.nextId++;
  const ok = send({
    type: "act",
    id,
    table: tableValue(),
    version: session.version,
    action,
  });
  if (!ok) {
    toast(t("reconnecting"), "warn");
    return;
  }
  session.pending.set(id, { action, onAck: opts.onAck });
  session.showNext = true;
  document.body.classList.add("busy");
}

function render() {
  const state = session.state;
  if (!state) return;
  if (state.locale) setLocale(state.locale);
  $("notice").hidden = true;
  $("app").hidden = false;
  // Which version is on screen (the tests, and anyone debugging, read it).
  document.body.dataset.table = String(session.table);
  document.body.dataset.version = String(session.version);
  const focused = document.activeElement;
  const focusKey = focused && focused.dataset ? focused.dataset.focusKey : null;
  renderTable(state, {
    act,
    session,
    choose,
    toast,
    rerender: render,
    newGame: session.local ? () => showNewGame() : null,
    rematchTo: session.rematchTo ? () => switchTable(session.rematchTo) : null,
  });
  if (focusKey) {
    // The same control again; for a card that left the hand, the hand's first card, so the
    // keyboard player stays in the hand.
    const again =
      document.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`) ||
      (focusKey.startsWith("hand:") ? document.querySelector('#hand button.card[tabindex="0"]') : null);
    if (again) again.focus();
  }
}

/** A choice among options ({label, action, cards}); resolves with the option or null. */
function choose(title, options, renderOption) {
  const dialog = $("chooser");
  $("chooser-title").textContent = title;
  const list = $("chooser-list");
  list.replaceChildren();
  return new Promise((resolve) => {
    const done = (value) => {
      dialog.onclose = null;
      if (dialog.open) dialog.close();
      resolve(value);
    };
    for (const option of options) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "choice";
      if (renderOption) renderOption(button, option);
      else button.textContent = option.label;
      button.onclick = () => done(option);
      list.appendChild(button);
    }
    $("chooser-cancel").textContent = t("cancel");
    $("chooser-cancel").onclick = () => done(null);
    dialog.onclose = () => done(null);
    dialog.showModal();
    const first = list.querySelector("button");
    if (first) first.focus();
  });
}

// Local play (`tavolo web`): a new game against the computer.
const PLAYERS = { scopa: [2, 3, 4], scopone: [4], scientifico: [4], briscola: [2, 3, 4], chiamata: [5], scala40: [2, 3, 4, 5, 6] };
const DEFAULT_PLAYERS = {};
const LEVELS = ["easy", "medium", "hard"];

function showNewGame(reason) {
  const box = $("newgame");
  box.replaceChildren();
  const title = document.createElement("h2");
  title.textContent = t("newGame");
  box.appendChild(title);
  if (reason) {
    const p = document.createElement("p");
    p.className = "hint";
    p.textContent = reason;
    box.appendChild(p);
  }
  const names = serverTable("games");
  const levels = serverTable("levels");
  // `games`: names, or {game, players} (docs/web-protocol.md, "Requests from the page").
  const games = [];
  for (const g of session.games.length ? session.games : Object.keys(PLAYERS)) {
    const key = typeof g === "string" ? g : g && g.game;
    if (!key) continue;
    games.push(key);
    if (g && Array.isArray(g.players) && g.players.length) PLAYERS[key] = g.players;
    if (g && g.default) DEFAULT_PLAYERS[key] = g.default;
  }
  const field = (label, control) => {
    const wrap = document.createElement("label");
    wrap.className = "field";
    wrap.append(label, control);
    box.appendChild(wrap);
    return control;
  };
  const game = document.createElement("select");
  game.name = "game";
  for (const g of games) game.add(new Option(names[g] || g, g));
  field(t("game"), game);
  const players = document.createElement("select");
  players.name = "players";
  const fill = () => {
    players.replaceChildren();
    for (const n of PLAYERS[game.value] || [2, 3, 4]) players.add(new Option(String(n), String(n)));
    if (DEFAULT_PLAYERS[game.value]) players.value = String(DEFAULT_PLAYERS[game.value]);
  };
  game.onchange = fill;
  fill();
  field(t("players"), players);
  const level = document.createElement("select");
  level.name = "level";
  const known = Object.keys(levels).length ? Object.keys(levels) : LEVELS;
  for (const l of known) level.add(new Option(levels[l] || l, l));
  field(t("level"), level);
  const go = document.createElement("button");
  go.type = "button";
  go.className = "btn primary";
  go.textContent = t("play");
  go.onclick = () => {
    send({ type: "new", id: session.nextId++, game: game.value, players: Number(players.value), level: level.value });
  };
  box.appendChild(go);
  if (session.state) {
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "btn quiet";
    cancel.textContent = t("cancel");
    cancel.onclick = () => (box.hidden = true);
    box.appendChild(cancel);
  }
  $("notice").hidden = true;
  box.hidden = false;
  game.focus();
}

async function main() {
  setLocale(query("lang") || navigator.language);
  const pace = Number(query("pace"));
  if (Number.isFinite(pace) && pace >= 0 && query("pace") !== null) session.pace = pace;
  session.params = launchParams();
  startTelegram(session.params);
  setStatus(t("loading"), "");
  try {
    await signIn();
  } catch (err) {
    setStatus("", "");
    return fatal(err.message);
  }
  if ((session.table === null || session.table === undefined) && !session.local) {
    setStatus("", "");
    return fatal(t("noTable"));
  }
  connect();
}

window.addEventListener("pagehide", (event) => {
  if (event.persisted) return; // kept in the back-forward cache: pageshow reopens
  session.closed = true;
  if (session.ws) session.ws.close();
});

window.addEventListener("pageshow", (event) => {
  if (event.persisted && session.token && (!session.ws || session.ws.readyState > 1)) connect();
});

// A phone that slept may have lost the socket without a word: back in view, reconnect at once
// rather than after the back-off.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState !== "visible" || !session.token || session.closed) return;
  if (!session.ws || session.ws.readyState > 1) {
    session.retries = 0;
    connect();
  }
});

main();
