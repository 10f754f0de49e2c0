// The page's own few labels (everything about the game comes translated in the server's state)
// and the cards' accessible names, in Italian and English.

const LABELS = {
  en: {
    loading: "Connecting…",
    reconnecting: "Connection lost, reconnecting…",
    online: "Connected",
    noAuth: "Open this table from Telegram (the button on the table's message).",
    authFailed: "This page could not be signed in: open it again from Telegram.",
    noTable: "No table to show: open it from a table's message.",
    you: "you",
    computer: "computer",
    yourTurn: "Your turn",
    turnOf: "{name}'s turn",
    spectator: "You are watching",
    hand: "Your hand",
    table: "Table",
    stock: "Stock",
    pile: "Discard pile",
    cards: "{n} cards",
    melds: "Melds",
    choose: "Choose",
    cancel: "Cancel",
    close: "Close",
    leave: "Leave",
    menu: "Menu",
    meldAdd: "Group as a meld",
    meldClear: "Clear",
    open: "Open",
    lay: "Lay",
    discard: "Discard",
    attachHint: "Then tap a meld on the table to attach",
    scalaHint: "Select cards to lay them, or one to discard",
    mustOpen: "Open now, using the card taken from the pile ({card})",
    mustUse: "Lay the card taken from the pile ({card}) first",
    drew: "You drew {card}.",
    low: "low end",
    high: "high end",
    swap: "Swap for the joker",
    attach: "Attach",
    staged: "Melds ready: {n}",
    captures: "takes",
    leaves: "leaves it on the table",
    trick: "Trick",
    tricks: "Tricks",
    lastTrick: "Last trick",
    briscola: "Briscola",
    called: "Called",
    score: "Score",
    result: "Result",
    refused: "Not done",
    meldN: "Meld {n}",
    empty: "empty",
    connected: "online",
    notConnected: "offline",
    selected: "selected",
    newGame: "New game",
    game: "Game",
    bid: "Bid",
    actions: "Actions",
    freeSeat: "free seat",
    openRematch: "Go to the rematch",
    players: "Players",
    level: "Computer level",
    play: "Play",
    gameOver: "Game over",
    back: "Card back",
  },
  it: {
    loading: "Connessione…",
    reconnecting: "Connessione persa, mi riconnetto…",
    online: "Connesso",
    noAuth: "Apri questo tavolo da Telegram (il pulsante sul messaggio del tavolo).",
    authFailed: "Non è stato possibile accedere: riapri la pagina da Telegram.",
    noTable: "Nessun tavolo da mostrare: aprila dal messaggio di un tavolo.",
    you: "tu",
    computer: "computer",
    yourTurn: "Tocca a te",
    turnOf: "Tocca a {name}",
    spectator: "Stai guardando",
    hand: "La tua mano",
    table: "Tavolo",
    stock: "Tallone",
    pile: "Pozzo",
    cards: "{n} carte",
    melds: "Combinazioni",
    choose: "Scegli",
    cancel: "Annulla",
    close: "Chiudi",
    leave: "Esci",
    menu: "Menu",
    meldAdd: "Metti insieme",
    meldClear: "Azzera",
    open: "Apri",
    lay: "Cala",
    discard: "Scarta",
    attachHint: "Poi tocca una combinazione sul tavolo per attaccare",
    scalaHint: "Seleziona le carte da calare, o una da scartare",
    mustOpen: "Apri ora, usando la carta presa dal pozzo ({card})",
    mustUse: "Prima cala la carta presa dal pozzo ({card})",
    drew: "Hai pescato {card}.",
    low: "in basso",
    high: "in alto",
    swap: "Scambia col jolly",
    attach: "Attacca",
    staged: "Combinazioni pronte: {n}",
    captures: "prende",
    leaves: "la lascia sul tavolo",
    trick: "Presa",
    tricks: "Prese",
    lastTrick: "Ultima presa",
    briscola: "Briscola",
    called: "Chiamata",
    score: "Punteggio",
    result: "Risultato",
    refused: "Non fatto",
    meldN: "Combinazione {n}",
    empty: "vuoto",
    connected: "in linea",
    notConnected: "non in linea",
    selected: "selezionata",
    newGame: "Nuova partita",
    game: "Gioco",
    bid: "Chiama",
    actions: "Azioni",
    freeSeat: "posto libero",
    openRematch: "Vai alla rivincita",
    players: "Giocatori",
    level: "Livello del computer",
    play: "Gioca",
    gameOver: "Partita finita",
    back: "Dorso",
  },
};

let current = "en";
// The server's words for this locale (GET /api/texts: the chat's own catalogs), preferred to the
// page's table above.
let server = null;

const SERVER_KEYS = {
  your_turn: "yourTurn",
  turn_of: "turnOf",
  spectator: "spectator",
  connecting: "loading",
  reconnecting: "reconnecting",
  signed_out: "authFailed",
  stock: "stock",
  pile: "pile",
  table: "table",
  hand: "hand",
  choose_capture: "choose",
  clear: "meldClear",
  score: "score",
  no_table: "noTable",
  new_game: "newGame",
  players: "players",
  level: "level",
  play: "play",
  game_over: "gameOver",
  back: "back",
};

export function setTexts(data) {
  if (!data || typeof data !== "object") return;
  const texts = {};
  for (const [key, value] of Object.entries(data.texts || {})) {
    if (typeof value === "string") texts[SERVER_KEYS[key] || key] = value;
  }
  server = { locale: String(data.locale || "").slice(0, 2), texts, cards: data.cards || {}, games: data.games || {}, levels: data.levels || {} };
}

export function serverTable(kind) {
  return (server && server[kind]) || {};
}

export function setLocale(locale) {
  const short = String(locale || "").slice(0, 2).toLowerCase();
  current = short in LABELS ? short : "en";
  document.documentElement.lang = current;
}

export function locale() {
  return current;
}

export function t(key, params) {
  const own = server && server.locale === current ? server.texts[key] : undefined;
  let text = own || (LABELS[current] && LABELS[current][key]) || LABELS.en[key] || key;
  if (params) {
    for (const [k, v] of Object.entries(params)) text = text.replace(`{${k}}`, String(v));
  }
  return text;
}

const ITALIAN_SUITS = {
  it: { D: "denari", C: "coppe", S: "spade", B: "bastoni" },
  en: { D: "coins", C: "cups", S: "swords", B: "clubs" },
};
const FRENCH_SUITS = {
  it: { D: "quadri", C: "cuori", S: "picche", B: "fiori" },
  en: { D: "diamonds", C: "hearts", S: "spades", B: "clubs" },
};
const ITALIAN_RANKS = {
  it: { A: "Asso", J: "Fante", Q: "Cavallo", K: "Re" },
  en: { A: "Ace", J: "Jack", Q: "Knight", K: "King" },
};
const FRENCH_RANKS = {
  it: { A: "Asso", T: "10", J: "Jack", Q: "Donna", K: "Re" },
  en: { A: "Ace", T: "10", J: "Jack", Q: "Queen", K: "King" },
};

export const SUIT_SYMBOL = { D: "♦", C: "♥", S: "♠", B: "♣" };

/** "7 di denari" / "7 of coins"; French cards ("Donna di cuori"), the joker ("Jolly"). */
export function cardName(card, french) {
  const text = String(card).replace(/'+$/, "").toUpperCase().replace(/^10/, "T");
  if (server && server.locale === current) {
    const names = server.cards[french ? "french" : "italian"] || {};
    const key = text.startsWith("*") ? "*" : text;
    if (names[key]) return names[key];
  }
  if (text.startsWith("*") || text === "JK") return current === "it" ? "Jolly" : "Joker";
  const rank = text.slice(0, -1);
  const suit = text.slice(-1);
  const ranks = (french ? FRENCH_RANKS : ITALIAN_RANKS)[current];
  const suits = (french ? FRENCH_SUITS : ITALIAN_SUITS)[current];
  const r = ranks[rank] || (rank === "10" ? "10" : rank);
  const s = suits[suit] || suit;
  return current === "it" ? `${r} di ${s}` : `${r} of ${s}`;
}

/** A short face for a card when its picture is missing: "7♦", "10♠", "★". */
export function cardShort(card) {
  const text = String(card).replace(/'+$/, "");
  if (text.startsWith("*") || text === "JK") return "★";
  const rank = text.slice(0, -1);
  return `${rank === "T" ? "10" : rank}${SUIT_SYMBOL[text.slice(-1)] || ""}`;
}
