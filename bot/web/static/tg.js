// The Telegram Mini App bridge, without telegram-web-app.js: Telegram passes the init data,
// theme and start parameter in the URL fragment (#tgWebAppData=...&tgWebAppThemeParams=...), and
// takes events through TelegramWebviewProxy (apps) or postMessage (Telegram Web). When Telegram's
// own script is present (window.Telegram.WebApp), it is used instead.

const STORE_KEY = "tavolo.tgParams";

function parseFragment(hash) {
  const params = {};
  const text = (hash || "").replace(/^#/, "");
  if (!text) return params;
  for (const part of text.split("&")) {
    const at = part.indexOf("=");
    if (at < 0) continue;
    const key = decodeURIComponent(part.slice(0, at));
    // tgWebAppData stays raw (percent-decoded once): it is the signed query string itself.
    params[key] = decodeURIComponent(part.slice(at + 1).replace(/\+/g, "%20"));
  }
  return params;
}

/** The launch parameters: from the fragment, or (after a reload inside Telegram, which may drop
 * the fragment) from the session's copy. */
export function launchParams() {
  let params = parseFragment(window.location.hash);
  try {
    if (params.tgWebAppData) {
      sessionStorage.setItem(STORE_KEY, JSON.stringify(params));
    } else {
      const kept = sessionStorage.getItem(STORE_KEY);
      if (kept) params = JSON.parse(kept);
    }
  } catch (_) {
    /* storage may be disabled: the fragment alone then */
  }
  return params;
}

export function webApp() {
  return window.Telegram && window.Telegram.WebApp && window.Telegram.WebApp.initData !== undefined
    ? window.Telegram.WebApp
    : null;
}

function postEvent(type, data) {
  const app = webApp();
  if (app) return; // Telegram's script does it
  try {
    if (window.TelegramWebviewProxy && window.TelegramWebviewProxy.postEvent) {
      window.TelegramWebviewProxy.postEvent(type, JSON.stringify(data || {}));
    } else if (window.external && "notify" in window.external) {
      window.external.notify(JSON.stringify({ eventType: type, eventData: data || {} }));
    } else if (window.parent !== window) {
      window.parent.postMessage(JSON.stringify({ eventType: type, eventData: data || {} }), "*");
    }
  } catch (_) {
    /* not inside Telegram */
  }
}

const THEME_VARS = {
  bg_color: "--tg-theme-bg-color",
  text_color: "--tg-theme-text-color",
  hint_color: "--tg-theme-hint-color",
  link_color: "--tg-theme-link-color",
  button_color: "--tg-theme-button-color",
  button_text_color: "--tg-theme-button-text-color",
  secondary_bg_color: "--tg-theme-secondary-bg-color",
  header_bg_color: "--tg-theme-header-bg-color",
  accent_text_color: "--tg-theme-accent-text-color",
  section_bg_color: "--tg-theme-section-bg-color",
  destructive_text_color: "--tg-theme-destructive-text-color",
};

function luminance(hex) {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex || "");
  if (!m) return 1;
  const v = parseInt(m[1], 16);
  return (0.299 * ((v >> 16) & 255) + 0.587 * ((v >> 8) & 255) + 0.114 * (v & 255)) / 255;
}

export function applyTheme(theme) {
  if (!theme) return;
  const root = document.documentElement;
  for (const [key, name] of Object.entries(THEME_VARS)) {
    if (typeof theme[key] === "string" && /^#[0-9a-f]{3,8}$/i.test(theme[key])) {
      root.style.setProperty(name, theme[key]);
    }
  }
  if (theme.bg_color) root.dataset.scheme = luminance(theme.bg_color) < 0.5 ? "dark" : "light";
}

/** Start the bridge: theme colours now and on change, tell Telegram the page is ready. */
export function startTelegram(params) {
  const app = webApp();
  if (app) {
    applyTheme(app.themeParams);
    if (app.onEvent) app.onEvent("themeChanged", () => applyTheme(app.themeParams));
    try {
      app.ready();
      app.expand();
    } catch (_) {
      /* old clients */
    }
    return;
  }
  if (params.tgWebAppThemeParams) {
    try {
      applyTheme(JSON.parse(params.tgWebAppThemeParams));
    } catch (_) {
      /* a bad theme is no reason not to play */
    }
  }
  // Telegram's apps call window.Telegram.WebView.receiveEvent(type, data); Telegram Web posts.
  const receive = (type, data) => {
    if (type === "theme_changed" && data && data.theme_params) applyTheme(data.theme_params);
  };
  window.Telegram = window.Telegram || {};
  window.Telegram.WebView = window.Telegram.WebView || { receiveEvent: receive };
  window.addEventListener("message", (event) => {
    try {
      const msg = typeof event.data === "string" ? JSON.parse(event.data) : event.data;
      if (msg && msg.eventType) receive(msg.eventType, msg.eventData);
    } catch (_) {
      /* not ours */
    }
  });
  if (params.tgWebAppData) {
    postEvent("web_app_ready");
    postEvent("web_app_expand");
  }
}

export function haptic(kind) {
  const app = webApp();
  try {
    if (app && app.HapticFeedback) app.HapticFeedback.notificationOccurred(kind);
    else if (window.TelegramWebviewProxy) {
      postEvent("web_app_trigger_haptic_feedback", { type: "notification", notification_type: kind });
    }
  } catch (_) {
    /* no haptics */
  }
}
