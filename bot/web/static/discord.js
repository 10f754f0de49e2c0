// The Discord Activity bridge, written for Tavolo (no SDK script is loaded): Discord opens the
// web table in an iframe with frame_id, instance_id, platform, guild_id and channel_id in the
// query, and talks to it through postMessage with [opcode, payload] tuples: the page sends a
// HANDSHAKE (opcode 0) naming the application and the frame, the client answers with FRAMEs
// (opcode 1), first the READY event; then the page's commands go as FRAMEs {cmd, args, nonce}
// and their answers come back with the same nonce (evt "ERROR" when refused). CLOSE (2) ends
// the conversation, HELLO (3) is nothing to answer.
//
// Signing in: AUTHORIZE gives a one-time OAuth2 code, the server exchanges it with the
// application's secret and checks the user and the guild (POST /api/auth/discord), and the
// access token it answers goes back to the client with AUTHENTICATE.

const OP = { HANDSHAKE: 0, FRAME: 1, CLOSE: 2, HELLO: 3 };
const SCOPES = ["identify", "guilds"];
const READY_WAIT_MS = 20000;
const COMMAND_WAIT_MS = 120000; // AUTHORIZE may wait for the user to accept

// Who may speak for the Discord client: its own origins (and this page's, as the SDK allows).
function trusted(origin) {
  // "null": Discord's mobile apps, whose web view posts without an origin.
  if (origin === window.location.origin || origin === "null") return true;
  if (/^http:\/\/(127\.0\.0\.1|localhost)(:[0-9]+)?$/.test(origin)) return true; // a local client
  return /^https:\/\/([a-z0-9-]+\.)?(discord\.com|discordapp\.com)$/.test(origin);
}

/** The launch parameters when the page is an Activity inside Discord, else null. */
export function discordLaunch() {
  const q = new URLSearchParams(window.location.search);
  const frameId = q.get("frame_id");
  const instanceId = q.get("instance_id");
  if (!frameId || !instanceId || window.parent === window) return null;
  return {
    frameId,
    instanceId,
    platform: q.get("platform") || "desktop",
    guildId: q.get("guild_id"),
    channelId: q.get("channel_id"),
  };
}

function nonce() {
  if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
  const bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

class Bridge {
  constructor(launch, clientId) {
    this.launch = launch;
    this.clientId = clientId;
    this.pending = new Map();
    this.closed = null;
    let target = window.parent;
    try {
      if (window.parent.opener) target = window.parent.opener;
    } catch (_) {
      /* the parent's opener is not ours to see */
    }
    this.target = target;
    // The parent's origin where the browser tells it (a popped-out Activity talks to the
    // opener, whose origin it cannot see); the CSP's frame-ancestors decides who frames us.
    const ancestors = window.location.ancestorOrigins;
    this.origin = target === window.parent && ancestors && ancestors.length ? ancestors[0] : "*";
    this.ready = new Promise((resolve, reject) => {
      this.onReady = resolve;
      this.readyTimer = setTimeout(() => reject(new Error("Discord did not answer")), READY_WAIT_MS);
    });
    window.addEventListener("message", (event) => this.receive(event));
    this.post(OP.HANDSHAKE, {
      v: 1,
      encoding: "json",
      client_id: clientId,
      frame_id: launch.frameId,
    });
  }

  post(opcode, payload) {
    this.target.postMessage([opcode, payload], this.origin);
  }

  receive(event) {
    if (event.source !== this.target || !trusted(event.origin)) return;
    let data = event.data;
    if (typeof data === "string") {
      try {
        data = JSON.parse(data);
      } catch (_) {
        return;
      }
    }
    if (!Array.isArray(data) || data.length < 2) return;
    let [opcode, payload] = data;
    if (typeof payload === "string") {
      try {
        payload = JSON.parse(payload);
      } catch (_) {
        return;
      }
    }
    if (opcode === OP.CLOSE) return this.close(payload);
    if (opcode !== OP.FRAME || !payload || typeof payload !== "object") return;
    if (payload.cmd === "DISPATCH") {
      if (payload.evt === "READY") {
        clearTimeout(this.readyTimer);
        this.onReady(payload.data || {});
      }
      return;
    }
    const waiting = this.pending.get(payload.nonce);
    if (!waiting) return;
    this.pending.delete(payload.nonce);
    clearTimeout(waiting.timer);
    if (payload.evt === "ERROR") {
      const message = (payload.data && payload.data.message) || "refused";
      waiting.reject(new Error(`${payload.cmd}: ${message}`));
    } else {
      waiting.resolve(payload.data || {});
    }
  }

  close(payload) {
    const reason = (payload && payload.message) || "closed";
    this.closed = reason;
    for (const waiting of this.pending.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(new Error(`Discord closed: ${reason}`));
    }
    this.pending.clear();
  }

  command(cmd, args) {
    if (this.closed) return Promise.reject(new Error(`Discord closed: ${this.closed}`));
    const id = nonce();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${cmd}: no answer`));
      }, COMMAND_WAIT_MS);
      this.pending.set(id, { resolve, reject, timer });
      this.post(OP.FRAME, { cmd, args, nonce: id });
    });
  }
}

let bridge = null;

async function clientId() {
  const response = await fetch("/api/auth/discord", { credentials: "same-origin" });
  const data = response.ok ? await response.json() : null;
  if (!data || !data.client_id) throw new Error("the Activity is not set up on this server");
  return String(data.client_id);
}

/** Sign in through the Discord client: AUTHORIZE, the server's check, AUTHENTICATE. Answers
 * like postJson: {ok, status, data} with the sign-in answer of docs/web-protocol.md. */
export async function discordSignIn(launch, postJson, { join }) {
  if (!bridge) bridge = new Bridge(launch, await clientId());
  await bridge.ready;
  const granted = await bridge.command("AUTHORIZE", {
    client_id: bridge.clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: SCOPES,
  });
  if (!granted || typeof granted.code !== "string") throw new Error("Discord gave no code");
  const answer = await postJson("/api/auth/discord", {
    code: granted.code,
    channel_id: launch.channelId,
    guild_id: launch.guildId,
    instance_id: launch.instanceId,
    join: Boolean(join),
  });
  if (answer.ok && answer.data && answer.data.access_token) {
    const accessToken = answer.data.access_token;
    delete answer.data.access_token;
    try {
      await bridge.command("AUTHENTICATE", { access_token: accessToken });
      document.body.dataset.discord = "authenticated";
    } catch (err) {
      // The table needs only the server's check; the client's session is Discord's own.
      console.warn("Discord's AUTHENTICATE failed:", err.message);
    }
  }
  return answer;
}
