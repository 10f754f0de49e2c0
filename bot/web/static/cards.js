// Card elements: the project's own pictures (/cards/<style>/<card>.png), an accessible name, and
// a drawn face when a picture cannot be loaded.

import { cardName, cardShort } from "./i18n.js";

const CARD_RE = /^(?:10|[A2-9TJQK])[DCSB]'?$|^\*'?$/i;

export function isCard(text) {
  return typeof text === "string" && CARD_RE.test(text);
}

export function sameCard(a, b) {
  return String(a).replace(/'+$/, "").toUpperCase() === String(b).replace(/'+$/, "").toUpperCase();
}

let cardBase = "/cards";

export function setCardBase(base) {
  if (base) cardBase = base.replace(/\/$/, "");
}

/** /cards/<style>/<CARD>.png: the card without the second deck's mark, "joker", or "back". */
export function cardUrl(style, card) {
  let name = String(card).replace(/'+$/, "");
  if (name.startsWith("*")) name = "joker";
  return `${cardBase}/${encodeURIComponent(style || "napoletane")}/${encodeURIComponent(name)}.png`;
}

// The drawn face lies under the picture: the card reads at once, and still does when the
// picture is slow to come or never does.
function picture(style, card) {
  const img = document.createElement("img");
  img.src = cardUrl(style, card);
  img.alt = "";
  img.decoding = "async";
  img.draggable = false;
  img.addEventListener("error", () => img.remove());
  return img;
}

function face(card) {
  const span = document.createElement("span");
  const text = cardShort(card);
  span.className = "face";
  if (/[♦♥]$/.test(text)) span.classList.add("red");
  span.textContent = text;
  span.setAttribute("aria-hidden", "true");
  return span;
}

/**
 * One card. `opts.button` makes it a focusable button (a hand card); `opts.french` names it with
 * the French deck's words; `opts.size` is a CSS class (sm, md, lg).
 */
export function cardEl(card, opts = {}) {
  const el = document.createElement(opts.button ? "button" : "span");
  el.className = `card ${opts.size || "md"}`;
  el.dataset.card = card;
  const name = cardName(card, opts.french);
  if (opts.button) {
    el.type = "button";
    el.setAttribute("aria-label", name);
  } else {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", name);
  }
  el.title = name;
  el.appendChild(face(card));
  el.appendChild(picture(opts.style, card));
  return el;
}

/** A face-down card (the stock); `count` shown on it. */
export function backEl(style, label, count) {
  const el = document.createElement("span");
  el.className = "card md back";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", label);
  const img = document.createElement("img");
  img.src = cardUrl(style, "back");
  img.alt = "";
  img.addEventListener("error", () => img.remove());
  el.appendChild(img);
  if (count !== undefined && count !== null) {
    const badge = document.createElement("span");
    badge.className = "count";
    badge.textContent = String(count);
    badge.setAttribute("aria-hidden", "true");
    el.appendChild(badge);
  }
  return el;
}

/**
 * The arrow keys move the focus among the buttons of `container` (a roving tab stop: one card is
 * in the tab order, the arrows reach the others, Enter or Space plays or selects).
 */
export function rovingFocus(container, selector) {
  const items = () => Array.from(container.querySelectorAll(selector));
  const list = items();
  list.forEach((el, i) => (el.tabIndex = i === 0 ? 0 : -1));
  container.onkeydown = (event) => {
    const all = items();
    const at = all.indexOf(document.activeElement);
    if (at < 0) return;
    let next = at;
    const perRow = Math.max(1, Math.round(container.clientWidth / (all[0].offsetWidth || 1)));
    switch (event.key) {
      case "ArrowRight":
        next = Math.min(all.length - 1, at + 1);
        break;
      case "ArrowLeft":
        next = Math.max(0, at - 1);
        break;
      case "ArrowDown":
        next = Math.min(all.length - 1, at + perRow);
        break;
      case "ArrowUp":
        next = Math.max(0, at - perRow);
        break;
      case "Home":
        next = 0;
        break;
      case "End":
        next = all.length - 1;
        break;
      default:
        return;
    }
    event.preventDefault();
    all[at].tabIndex = -1;
    all[next].tabIndex = 0;
    all[next].focus();
  };
}
