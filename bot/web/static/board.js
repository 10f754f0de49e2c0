// Renders one state (docs/web-protocol.md "state"): the seats, the family's table, the hand,
// the buttons. Only what the state holds is shown; every move is one the state lists, or (Scala
// 40's melds, composed from selected cards) one the server checks like any other.

import { t, locale, cardName } from "./i18n.js";
import { cardEl, backEl, isCard, sameCard, rovingFocus } from "./cards.js";

const $ = (id) => document.getElementById(id);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function button(label, onClick, className = "btn") {
  const node = el("button", className, label);
  node.type = "button";
  node.onclick = onClick;
  return node;
}

function moveList(state) {
  if (Array.isArray(state.moves) && state.moves.length) return state.moves;
  const legal = (state.view && state.view.legal_moves) || [];
  return legal.map((move) => ({ move, label: move }));
}

function seatName(state, seat) {
  const info = (state.seats || []).find((s) => s.seat === seat);
  return info ? info.name : `#${seat + 1}`;
}

function sideOf(view, seat) {
  if (!view || !Array.isArray(view.sides)) return seat;
  const at = view.sides.findIndex((side) => side.includes(seat));
  return at < 0 ? seat : at;
}

function family(state) {
  const v = state.view || {};
  if (state.family === "scala40" || "melds" in v) return "scala40";
  if (state.family === "briscola" || state.family === "chiamata" || "trick" in v) return "briscola";
  return "scopa";
}

// --- the frame around every family ---------------------------------------------------------

function renderHeader(state) {
  $("title").textContent = state.title || state.game_name || state.game || "";
  document.title = `${$("title").textContent} · Tavolo`;
  const turn = $("turn");
  const you = state.you;
  let text = "";
  if (state.status === "playing") {
    if (you === null || you === undefined) text = t("spectator");
    if (state.turn !== null && state.turn !== undefined) {
      const whose = state.turn === you ? t("yourTurn") : t("turnOf", { name: seatName(state, state.turn) });
      text = text ? `${text} · ${whose}` : whose;
    }
  } else if (you === null || you === undefined) {
    text = state.status === "lobby" ? "" : t("spectator");
  }
  turn.textContent = text;
  document.body.classList.toggle("my-turn", state.status === "playing" && state.turn === you && you !== null && you !== undefined);
}

function seatFacts(state, seat) {
  const v = state.view;
  if (!v) return [];
  const facts = [];
  const count = v.hand_counts && v.hand_counts[seat];
  if (count !== undefined && state.status === "playing") facts.push({ back: count });
  const fam = family(state);
  const side = sideOf(v, seat);
  if (fam === "scopa") {
    if (v.points) facts.push(`${v.points[side]}/${v.target}`);
    if (v.scope && v.scope[side]) facts.push(`scope ${v.scope[side]}`);
  } else if (fam === "briscola") {
    // Games won, or points (chiamata, "a punti"): the match score either way.
    if (v.scores) facts.push(`${t("score")} ${v.scores[v.variant === "chiamata" ? seat : side] ?? ""}`);
    if (v.tricks_won && state.status === "playing") facts.push(`${t("tricks")} ${v.tricks_won[seat]}`);
    if (v.caller === seat) facts.push("☎");
  } else if (fam === "scala40") {
    if (v.scores) facts.push(`${v.scores[seat]}/${v.elimination}`);
    if (v.opened && v.opened[seat]) facts.push("✓");
    if (v.eliminated && v.eliminated[seat]) facts.push("✗");
  }
  return facts;
}

function renderSeats(state, ctx) {
  const list = $("seats");
  list.replaceChildren();
  list.dataset.count = String((state.seats || []).length);
  list.setAttribute("aria-label", t("players"));
  $("bar").setAttribute("aria-label", t("actions"));
  const live = ctx.session && Array.isArray(ctx.session.connected) ? ctx.session.connected : null;
  for (const seat of state.seats || []) {
    if (live) seat.connected = live.includes(seat.seat);
    const item = el("li", "seat");
    if (seat.you) item.classList.add("you");
    if (state.turn === seat.seat && state.status === "playing") {
      item.classList.add("turn");
      item.setAttribute("aria-current", "true");
    }
    if (seat.free) item.classList.add("free");
    if (seat.team !== null && seat.team !== undefined) item.dataset.team = String(seat.team);
    const name = el("span", "name", seat.free ? t("freeSeat") : seat.name);
    item.appendChild(name);
    const marks = [];
    if (seat.computer && !/comput/i.test(seat.name)) marks.push(`(${t("computer")})`);
    if (seat.you) marks.push(`(${t("you")})`);
    if (!seat.computer && !seat.free && !seat.you) {
      const dot = el("span", seat.connected ? "dot on" : "dot");
      dot.setAttribute("aria-label", seat.connected ? t("connected") : t("notConnected"));
      dot.setAttribute("role", "img");
      item.appendChild(dot);
    }
    if (marks.length) item.appendChild(el("span", "mark", marks.join(" ")));
    const facts = seatFacts(state, seat.seat);
    if (facts.length) {
      const box = el("span", "facts");
      facts.forEach((fact, i) => {
        if (i) box.appendChild(document.createTextNode(" · "));
        if (typeof fact === "object") {
          const icon = el("span", "mini-back");
          icon.setAttribute("aria-hidden", "true");
          box.append(icon, document.createTextNode(String(fact.back)));
          box.setAttribute("aria-label", facts.map((f) => (typeof f === "object" ? t("cards", { n: f.back }) : f)).join(", "));
        } else box.appendChild(document.createTextNode(fact));
      });
      item.appendChild(box);
    }
    list.appendChild(item);
  }
}

function renderActions(state, ctx, bar) {
  for (const action of state.actions || []) {
    const node = button(action.label, async () => {
      if (action.action === "@quit") {
        // "Leave the game?": asked here, as the chat asks it in a second message.
        const pick = await ctx.choose(action.label, [{ label: t("leave"), action: "@leave" }]);
        if (pick) ctx.act(pick.action);
        return;
      }
      ctx.act(action.action);
    });
    node.dataset.action = action.action;
    node.dataset.focusKey = `action:${action.action}`;
    if (/leave|quit|@q|@x/i.test(action.action)) node.classList.add("quiet");
    bar.appendChild(node);
  }
}

function renderLog(state, ctx) {
  const log = $("log");
  const source = ctx.session && ctx.session.log ? ctx.session.log : state.log;
  const lines = Array.isArray(source) ? source.slice(-3).map(stripMarkup) : [];
  log.replaceChildren(...lines.map((line) => el("p", "", line)));
  log.hidden = !lines.length;
}

/** The chat's own text of the table: the lobby's, or at the end the last deal's summary
 * (scores, primiera and points explained) and the game's end, as the chat told them. */
function renderText(state, board, ctx) {
  const text = state.text && state.text.table;
  const box = el("section", "result");
  box.setAttribute("aria-label", t("result"));
  if (state.status === "over") {
    box.appendChild(el("h2", "panel-title", t("gameOver")));
    const log = (ctx && ctx.session && ctx.session.log) || [];
    for (const line of log.slice(-2)) box.appendChild(el("p", "text", stripMarkup(line)));
    if (text) {
      const more = el("details", "more");
      more.appendChild(el("summary", "", t("table")));
      more.appendChild(el("p", "text", stripMarkup(text)));
      box.appendChild(more);
    }
  } else if (text) {
    box.appendChild(el("p", "text", stripMarkup(text)));
  } else return;
  board.appendChild(box);
}

function stripMarkup(text) {
  return String(text)
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

export function renderTable(state, ctx) {
  renderHeader(state);
  renderSeats(state, ctx);
  renderLog(state, ctx);
  const board = $("board");
  const hand = $("hand");
  const bar = $("bar");
  board.replaceChildren();
  hand.replaceChildren();
  bar.replaceChildren();
  board.dataset.family = family(state);
  document.body.dataset.status = state.status;
  $("hand-area").hidden = true;
  $("log").hidden = $("log").hidden || state.status === "over";
  if (state.status === "lobby" || !state.view) {
    renderText(state, board, ctx);
  } else {
    const fam = family(state);
    if (fam === "scopa") renderScopa(state, ctx, board, hand, bar);
    else if (fam === "briscola") renderBriscola(state, ctx, board, hand, bar);
    else renderScala(state, ctx, board, hand, bar);
    if (state.status !== "playing") renderText(state, board, ctx);
  }
  renderActions(state, ctx, bar);
  if (ctx.rematchTo) {
    const node = button(t("openRematch"), ctx.rematchTo, "btn primary");
    node.dataset.action = "open-rematch";
    bar.prepend(node);
  }
  if (ctx.newGame && state.status === "over") {
    const node = button(t("newGame"), ctx.newGame, "btn quiet");
    node.dataset.focusKey = "newgame";
    bar.appendChild(node);
  }
  bar.hidden = !bar.children.length;
}

function showHand(state, hand, cards, opts) {
  const area = $("hand-area");
  area.hidden = false;
  $("hand-title").textContent = t("hand");
  hand.style.setProperty("--cols", String(handColumns(cards.length)));
  cards.forEach((card, index) => {
    const node = cardEl(card, { button: true, style: state.deck, french: opts.french, size: "hand" });
    node.dataset.index = String(index);
    node.dataset.focusKey = `hand:${card}:${index}`;
    if (opts.decorate) opts.decorate(node, card, index);
    node.onclick = () => opts.onCard(card, index, node);
    hand.appendChild(node);
  });
  rovingFocus(hand, "button.card");
}

// One row up to 7 cards (at 360 px a card stays 44 px wide or more), two rows up to 14.
function handColumns(n) {
  if (n <= 7) return Math.max(n, 3);
  if (n <= 10) return Math.ceil(n / 2);
  return 7;
}

function myTurn(state) {
  return state.status === "playing" && state.you !== null && state.you !== undefined && state.turn === state.you;
}

function nudge(node) {
  node.classList.remove("nudge");
  void node.offsetWidth;
  node.classList.add("nudge");
}

function cardRow(state, cards, opts = {}) {
  const row = el("div", `cards ${opts.className || ""}`);
  for (const card of cards) row.appendChild(cardEl(card, { style: state.deck, french: opts.french, size: opts.size || "md" }));
  return row;
}

function panel(title, className) {
  const box = el("section", `panel ${className || ""}`);
  if (title) box.appendChild(el("h2", "panel-title", title));
  return box;
}

// --- Scopa, Scopone -------------------------------------------------------------------------

function scopaParts(move) {
  const text = move.replace(/!$/, "");
  const [card, taken] = text.split(":");
  return { card, taken: taken ? taken.split("+") : [], fuori: move.endsWith("!") };
}

function renderScopa(state, ctx, board, hand, bar) {
  const v = state.view;
  const table = panel(`${t("table")} · ${t("cards", { n: v.table.length })}`, "felt");
  table.appendChild(v.table.length ? cardRow(state, v.table, { className: "table-cards" }) : el("p", "hint", t("empty")));
  const facts = el("p", "facts");
  facts.textContent = `${t("stock")}: ${v.deck_count}`;
  table.appendChild(facts);
  board.appendChild(table);
  if (v.last_move) {
    const [seat, move] = v.last_move;
    const parts = scopaParts(move);
    const last = el("p", "last");
    last.appendChild(el("span", "", `${seatName(state, seat)}: `));
    last.appendChild(cardEl(parts.card, { style: state.deck, size: "sm" }));
    if (parts.taken.length) {
      last.appendChild(el("span", "", ` ${t("captures")} `));
      for (const c of parts.taken) last.appendChild(cardEl(c, { style: state.deck, size: "sm" }));
    }
    board.appendChild(last);
  }
  if (!v.hand || !v.hand.length) return;
  const moves = moveList(state);
  showHand(state, hand, v.hand, {
    decorate: (node, card) => {
      if (myTurn(state) && moves.some((m) => sameCard(scopaParts(m.move).card, card))) node.classList.add("playable");
      // Pointing at a card (or focusing it) marks the table cards it would take.
      const taken = new Set(
        moves.filter((m) => sameCard(scopaParts(m.move).card, card)).flatMap((m) => scopaParts(m.move).taken),
      );
      const mark = (on) => {
        for (const c of board.querySelectorAll(".table-cards .card")) {
          c.classList.toggle("target", on && taken.has(c.dataset.card));
        }
      };
      if (taken.size) {
        node.addEventListener("pointerenter", () => mark(true));
        node.addEventListener("pointerleave", () => mark(false));
        node.addEventListener("focus", () => mark(true));
        node.addEventListener("blur", () => mark(false));
      }
    },
    onCard: async (card, _index, node) => {
      const options = moves.filter((m) => sameCard(scopaParts(m.move).card, card));
      if (!myTurn(state) || !options.length) return nudge(node);
      if (options.length === 1) return ctx.act(options[0].move);
      const pick = await ctx.choose(t("choose"), options, (btn, option) => {
        const parts = scopaParts(option.move);
        const spoken = parts.taken.length
          ? `${cardName(parts.card)} ${t("captures")} ${parts.taken.map((c) => cardName(c)).join(", ")}`
          : `${cardName(parts.card)}, ${t("leaves")}`;
        btn.setAttribute("aria-label", parts.fuori ? `${spoken} (${option.label})` : spoken);
        btn.appendChild(cardEl(parts.card, { style: state.deck, size: "sm" }));
        if (parts.taken.length) {
          btn.appendChild(el("span", "arrow", "→"));
          for (const c of parts.taken) btn.appendChild(cardEl(c, { style: state.deck, size: "sm" }));
        }
        btn.appendChild(el("span", "label", option.label || option.move));
      });
      if (pick) ctx.act(pick.move);
    },
  });
  // Moves that are no card of the hand (none in Scopa today): buttons, labelled by the server.
  for (const m of moves) if (!isCard(scopaParts(m.move).card)) bar.appendChild(button(m.label, () => ctx.act(m.move)));
}

// --- Briscola, chiamata -----------------------------------------------------------------------

function renderBriscola(state, ctx, board, hand, bar) {
  const v = state.view;
  const table = panel("", "felt");
  const top = el("div", "row");
  const stock = el("div", "pile");
  if (v.stock_count > 0) stock.appendChild(backEl(state.deck, `${t("stock")}: ${v.stock_count}`, v.stock_count));
  if (v.briscola) {
    const trump = el("div", "pile");
    trump.appendChild(cardEl(v.briscola, { style: state.deck }));
    trump.appendChild(el("span", "caption", t("briscola")));
    top.appendChild(trump);
  } else if (v.briscola_suit) {
    top.appendChild(el("span", "caption", `${t("briscola")}: ${suitText(v.briscola_suit)}`));
  }
  if (v.called) {
    const called = el("div", "pile");
    called.appendChild(cardEl(v.called, { style: state.deck }));
    called.appendChild(el("span", "caption", t("called")));
    top.appendChild(called);
  }
  if (stock.children.length) top.appendChild(stock);
  const trick = el("div", "trick");
  const shown = v.trick && v.trick.length ? v.trick : [];
  for (const [seat, card] of shown) {
    const slot = el("figure", "slot");
    slot.appendChild(cardEl(card, { style: state.deck }));
    slot.appendChild(el("figcaption", "", seatName(state, seat)));
    trick.appendChild(slot);
  }
  if (!shown.length && v.last_trick) {
    trick.classList.add("done");
    const cards = String(v.last_trick.cards || "").split(/\s+/).filter(Boolean);
    const players = v.players || cards.length;
    cards.forEach((card, i) => {
      const seat = (v.last_trick.leader + i) % players;
      const slot = el("figure", "slot");
      slot.appendChild(cardEl(card, { style: state.deck }));
      slot.appendChild(el("figcaption", "", seatName(state, seat)));
      trick.appendChild(slot);
    });
    trick.setAttribute("aria-label", `${t("lastTrick")}: ${seatName(state, v.last_trick.winner)}`);
    table.appendChild(el("p", "hint", `${t("lastTrick")} → ${seatName(state, v.last_trick.winner)}`));
  }
  table.appendChild(trick);
  top.classList.add("under");
  table.appendChild(top);
  if (v.auction && v.auction.length) {
    const auction = el("p", "facts");
    auction.textContent = v.auction.map(([seat, bid]) => `${seatName(state, seat)}: ${bid}`).join(" · ");
    table.appendChild(auction);
  }
  board.appendChild(table);
  const moves = moveList(state);
  if (v.hand && v.hand.length) {
    showHand(state, hand, v.hand, {
      decorate: (node, card) => {
        if (myTurn(state) && moves.some((m) => sameCard(m.move, card))) node.classList.add("playable");
      },
      onCard: (card, _index, node) => {
        const move = moves.find((m) => isCard(m.move) && sameCard(m.move, card));
        if (!myTurn(state) || !move) return nudge(node);
        ctx.act(move.move);
      },
    });
  }
  // The auction's bids, the call, the swap: buttons with the server's labels; the point bids
  // (61 to 120: dozens of them) as one list and a button.
  const points = moves.filter((m) => /^\d+$/.test(m.move) && Number(m.move) > 20);
  for (const m of moves) {
    if (isCard(m.move) || points.includes(m)) continue;
    const node = button(m.label || m.move, () => ctx.act(m.move), "btn move");
    node.dataset.move = m.move;
    node.dataset.focusKey = `move:${m.move}`;
    bar.appendChild(node);
  }
  if (points.length) {
    const pick = document.createElement("select");
    pick.className = "bid";
    pick.dataset.role = "points";
    pick.dataset.focusKey = "points";
    pick.setAttribute("aria-label", t("bid"));
    for (const m of points) pick.add(new Option(m.label || m.move, m.move));
    const go = button(t("bid"), () => ctx.act(pick.value), "btn move primary");
    go.dataset.role = "bid";
    bar.append(pick, go);
  }
}

function suitText(suit) {
  const names = locale() === "it"
    ? { D: "denari", C: "coppe", S: "spade", B: "bastoni" }
    : { D: "coins", C: "cups", S: "swords", B: "clubs" };
  return names[suit] || suit;
}

// --- Scala 40 ---------------------------------------------------------------------------------

const ORDER = { A: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, T: 10, J: 11, Q: 12, K: 13 };
const RANK_AT = ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];

const bare = (card) => String(card).replace(/'+$/, "").toUpperCase().replace(/^10/, "T");
const isJoker = (card) => bare(card) === "*";

/** The selected cards in the order the move string wants them (a scala ascending, each joker
 * where the card it stands for goes); the server still judges the meld. */
export function layMeld(cards) {
  const real = cards.map(bare).filter((c) => !isJoker(c));
  const jokers = cards.map(bare).filter(isJoker);
  if (real.length < 1) return cards.map(bare);
  if (new Set(real.map((c) => c.slice(0, -1))).size === 1) return [...real, ...jokers];
  let best = null;
  for (const aceHigh of [false, true]) {
    const placed = real.map((c) => ({ card: c, at: c[0] === "A" ? (aceHigh ? 14 : 1) : ORDER[c.slice(0, -1)] }));
    placed.sort((a, b) => a.at - b.at);
    const low = placed[0].at;
    const high = placed[placed.length - 1].at;
    const gaps = high - low + 1 - placed.length;
    if (new Set(placed.map((p) => p.at)).size !== placed.length || gaps > jokers.length) continue;
    if (!best || gaps < best.gaps) best = { placed, low, high, gaps };
  }
  if (!best) return [...real, ...jokers];
  const out = [];
  let spare = jokers.length - best.gaps;
  const byAt = new Map(best.placed.map((p) => [p.at, p.card]));
  for (let at = best.low; at <= best.high; at++) out.push(byAt.get(at) || "*");
  let high = best.high;
  while (spare > 0 && high < 14) {
    out.push("*");
    high++;
    spare--;
  }
  while (spare-- > 0) out.unshift("*");
  return out;
}

function renderScala(state, ctx, board, hand, bar) {
  const v = state.view;
  const ui = ctx.session.ui;
  const moves = moveList(state);
  const has = (text) => moves.find((m) => m.move === text);
  const mine = myTurn(state);
  const handCards = v.hand || [];
  // The selection is kept by card and occurrence (two decks: a card may be there twice), so it
  // survives a new version that moves cards in the hand.
  const keys = [];
  const seen = new Map();
  for (const card of handCards) {
    const n = seen.get(card) || 0;
    seen.set(card, n + 1);
    keys.push(`${card}#${n}`);
  }
  const indexOf = new Map(keys.map((k, i) => [k, i]));
  if (!mine || v.phase !== "meld") {
    ui.selected = [];
    ui.staged = [];
  }
  ui.selected = ui.selected.filter((k) => indexOf.has(k));
  ui.staged = ui.staged.filter((group) => group.every((k) => indexOf.has(k)));

  const table = panel("", "felt");
  const top = el("div", "row");
  const stock = button("", () => (mine && has("t") ? ctx.act("t") : undefined), "pile-btn");
  stock.setAttribute("aria-label", `${t("stock")}: ${v.stock_count}`);
  stock.appendChild(backEl(state.deck, `${t("stock")}: ${v.stock_count}`, v.stock_count));
  stock.appendChild(el("span", "caption", t("stock")));
  stock.disabled = !(mine && has("t"));
  stock.dataset.focusKey = "stock";
  top.appendChild(stock);
  const pile = button("", () => (mine && has("p") ? ctx.act("p") : undefined), "pile-btn");
  pile.setAttribute("aria-label", `${t("pile")}: ${v.pile_top ? "" : t("empty")}`);
  if (v.pile_top) {
    pile.appendChild(cardEl(v.pile_top, { style: state.deck, french: true }));
    pile.setAttribute("aria-label", `${t("pile")}: ${pile.firstChild.getAttribute("aria-label")}`);
  } else pile.appendChild(el("span", "card md empty", ""));
  pile.appendChild(el("span", "caption", t("pile")));
  pile.disabled = !(mine && has("p"));
  pile.dataset.focusKey = "pile";
  top.appendChild(pile);
  table.appendChild(top);

  const melds = el("div", "melds");
  melds.setAttribute("aria-label", t("melds"));
  (v.melds || []).forEach((meld, index) => {
    const n = index + 1;
    const node = button("", () => onMeld(n, meld), "meld");
    node.dataset.meld = String(n);
    node.dataset.focusKey = `meld:${n}`;
    const names = meld.cards.map((c) => cardName(c, true)).join(", ");
    node.setAttribute("aria-label", `${t("meldN", { n })} (${seatName(state, meld.owner)}): ${names}`);
    node.appendChild(el("span", "meld-no", String(n)));
    const row = el("span", "cards tight");
    for (const card of meld.cards) row.appendChild(cardEl(card, { style: state.deck, french: true, size: "sm" }));
    node.appendChild(row);
    melds.appendChild(node);
  });
  table.appendChild(melds);
  board.appendChild(table);

  async function onMeld(n, meld) {
    if (!mine || v.phase !== "meld") return;
    if (ui.selected.length !== 1) return ctx.toast(t("attachHint"), "info");
    const card = handCards[indexOf.get(ui.selected[0])];
    const listed = moves.filter((m) => {
      const match = /^([as])(\d+)\s+(\S+?)([<>]?)$/i.exec(m.move);
      return match && Number(match[2]) === n && sameCard(match[3], card);
    });
    let options = listed;
    if (!options.length) options = [{ move: `a${n} ${bare(card)}`, label: t("attach") }];
    let pick = options[0];
    if (options.length > 1) pick = await ctx.choose(t("meldN", { n }), options);
    if (!pick) return;
    ctx.act(pick.move, { onAck: () => clearSelection() });
  }

  function clearSelection() {
    ui.selected = [];
    ui.staged = [];
  }

  const stagedSet = new Set(ui.staged.flat());
  // The card just drawn from the stock (only in this seat's own view, on its turn): the hand is
  // sorted, so it is marked and named. Its exact copy (deck mark included) is the one drawn.
  const drawnAt = v.drawn ? handCards.indexOf(v.drawn) : -1;
  if (handCards.length) {
    showHand(state, hand, handCards, {
      french: true,
      decorate: (node, card, index) => {
        const on = ui.selected.includes(keys[index]);
        node.setAttribute("aria-pressed", on ? "true" : "false");
        if (on) node.classList.add("selected");
        if (stagedSet.has(keys[index])) node.classList.add("staged");
        if (v.pile_card_taken && sameCard(card, v.pile_card_taken)) node.classList.add("taken");
        if (index === drawnAt) {
          node.classList.add("drawn");
          node.setAttribute("aria-describedby", "drawn-hint");
        }
      },
      onCard: (_card, index, node) => {
        if (!mine || v.phase !== "meld" || stagedSet.has(keys[index])) return nudge(node);
        const at = ui.selected.indexOf(keys[index]);
        if (at >= 0) ui.selected.splice(at, 1);
        else ui.selected.push(keys[index]);
        ctx.rerender();
      },
    });
  }

  if (v.drawn) {
    const said = el("p", "hint drawn-hint", t("drew", { card: cardName(v.drawn, true) }));
    said.id = "drawn-hint";
    said.dataset.hint = "drawn";
    table.appendChild(said);
  }
  if (mine && v.phase === "meld") {
    table.appendChild(el("p", "hint", ui.selected.length === 1 ? t("attachHint") : t("scalaHint")));
    if (v.pile_card_taken && (v.must_open || v.must_use)) {
      const key = v.must_open ? "mustOpen" : "mustUse";
      table.appendChild(el("p", "hint", t(key, { card: cardName(v.pile_card_taken, true) })));
    }
  }
  if (!mine) return;
  // The listed moves that need no selection: draws, the re-entry, the offered opening, and a
  // few of the melds the hand can lay (the rest by selecting their cards).
  let offered = 0;
  for (const m of moves) {
    const meld = /^[om]\s/i.test(m.move);
    if (meld && offered >= 3) continue;
    if (/^(t|p|in|out)$/i.test(m.move) || meld) {
      if (meld) offered += 1;
      const node = button(m.label || m.move, () => ctx.act(m.move, { onAck: clearSelection }), "btn move");
      node.dataset.move = m.move;
      node.dataset.focusKey = `move:${m.move}`;
      bar.appendChild(node);
    }
  }
  if (v.phase !== "meld") return;
  const cardOf = (k) => handCards[indexOf.get(k)];
  const selected = ui.selected.map(cardOf);
  const melds2 = ui.staged.map((group) => layMeld(group.map(cardOf)));
  if (selected.length >= 3) {
    const group = button(t("meldAdd"), () => {
      ui.staged.push(ui.selected.slice());
      ui.selected = [];
      ctx.rerender();
    }, "btn");
    group.dataset.compose = "group";
    bar.appendChild(group);
  }
  const composed = [...melds2];
  if (selected.length >= 3) composed.push(layMeld(selected));
  if (composed.length) {
    const opened = v.opened && v.opened[state.you];
    const word = opened ? "m" : "o";
    const text = `${word} ${composed.map((m) => m.join("")).join(" ")}`;
    const node = button(`${opened ? t("lay") : t("open")} ${composed.length > 1 ? `(${composed.length})` : ""}`.trim(), () => ctx.act(text, { onAck: clearSelection }), "btn primary");
    node.dataset.move = text;
    node.dataset.compose = "meld";
    bar.appendChild(node);
  }
  if (selected.length === 1) {
    const card = bare(selected[0]);
    const node = button(`${t("discard")}`, () => ctx.act(`d ${card}`, { onAck: clearSelection }), "btn");
    node.dataset.move = `d ${card}`;
    bar.appendChild(node);
  }
  if (ui.selected.length || ui.staged.length) {
    bar.appendChild(button(t("meldClear"), () => {
      clearSelection();
      ctx.rerender();
    }, "btn quiet"));
  }
  if (ui.staged.length) bar.appendChild(el("span", "hint", t("staged", { n: ui.staged.length })));
}
