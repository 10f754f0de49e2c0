// The Discord client's side of the Embedded App SDK's protocol, played by the tests: the
// Activity (the web table) in an iframe, answering its HANDSHAKE with READY, its AUTHORIZE
// with a code the fake Discord issued for this user (or a refusal), its AUTHENTICATE.
const q = new URLSearchParams(window.location.search);
const frameId = q.get("frame_id");
const clientId = q.get("client_id");
// The Activity's own origin (the web table's server), as Discord's proxy would be.
const app = new URL(q.get("app") || window.location.origin).origin;
window.discordLog = [];
window.authenticated = null;

const frame = document.createElement("iframe");
frame.id = "activity";
frame.title = "Activity";
const target = new URLSearchParams({
  frame_id: frameId,
  instance_id: q.get("instance_id"),
  platform: "desktop",
  guild_id: q.get("guild_id"),
  channel_id: q.get("channel_id"),
});
frame.src = `${app}/?${target}`;
document.documentElement.style.margin = "0";
document.body.style.margin = "0";
frame.style.border = "0";
frame.style.width = "100vw";
frame.style.height = "100vh";
frame.style.display = "block";

function reply(payload) {
  frame.contentWindow.postMessage([1, payload], app);
}

async function authorize(payload) {
  const args = payload.args || {};
  if (args.client_id !== clientId || args.response_type !== "code") {
    return reply({ cmd: "AUTHORIZE", evt: "ERROR", nonce: payload.nonce, data: { code: 4000, message: "bad args" } });
  }
  let code = q.get("code");
  if (!code) {
    const response = await fetch(`/test-discord-code?user=${encodeURIComponent(q.get("user"))}`);
    code = (await response.json()).code;
  }
  reply({ cmd: "AUTHORIZE", evt: null, nonce: payload.nonce, data: { code } });
}

window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow || event.origin !== app) return;
  const [opcode, payload] = event.data;
  window.discordLog.push([opcode, payload && payload.cmd]);
  if (opcode === 0) {
    if (payload.v !== 1 || payload.frame_id !== frameId || payload.client_id !== clientId) {
      frame.contentWindow.postMessage([2, { code: 4000, message: "bad handshake" }], app);
      return;
    }
    reply({ cmd: "DISPATCH", evt: "READY", nonce: null, data: { v: 1, config: { cdn_host: "cdn.discordapp.com", api_endpoint: "/api", environment: "test" } } });
  } else if (opcode === 1 && payload.cmd === "AUTHORIZE") {
    authorize(payload);
  } else if (opcode === 1 && payload.cmd === "AUTHENTICATE") {
    window.authenticated = payload.args && payload.args.access_token;
    reply({ cmd: "AUTHENTICATE", evt: null, nonce: payload.nonce, data: { access_token: window.authenticated, user: { id: q.get("user") }, scopes: ["identify", "guilds"] } });
  } else if (opcode === 1) {
    reply({ cmd: payload.cmd, evt: "ERROR", nonce: payload.nonce, data: { code: 4002, message: "unknown command" } });
  }
});
document.body.appendChild(frame);
