// The live updates of one conflict: a WebSocket that resumes from its cursor after a drop.

const FINAL = new Set([4401, 4403, 4404]); // revoked, not allowed, unknown: do not retry

/** A subscription; onFrame(frame) for each frame, onStatus(state, text) on each change. */
export class Live {
  constructor(path, { onFrame, onStatus }) {
    this.path = path;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.cursor = null;
    this.delay = 500;
    this.socket = null;
    this.stopped = false;
    this.pinger = null;
    window.addEventListener("online", () => this.reconnectNow());
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  stop() {
    this.stopped = true;
    clearInterval(this.pinger);
    if (this.socket) this.socket.close(1000);
  }

  reconnectNow() {
    if (this.stopped || (this.socket && this.socket.readyState <= WebSocket.OPEN)) return;
    clearTimeout(this.retry);
    this.connect();
  }

  connect() {
    const url = new URL(this.path, location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    if (this.cursor) url.searchParams.set("cursor", this.cursor);
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.delay = 500;
      this.onStatus("live", this.cursor ? "live again (reconnected)" : "live");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => {
        if (socket.readyState === WebSocket.OPEN) socket.send('{"type":"ping"}');
      }, 20000);
    });
    socket.addEventListener("message", (event) => {
      const frame = JSON.parse(event.data);
      if (frame.cursor) this.cursor = frame.cursor;
      this.onFrame(frame);
    });
    socket.addEventListener("close", (event) => {
      clearInterval(this.pinger);
      if (this.socket !== socket || this.stopped) return;
      if (FINAL.has(event.code)) {
        this.onStatus("closed", event.code === 4401
          ? "this link was revoked or is not valid any more" : "closed by the server");
        return;
      }
      this.onStatus("down", "connection lost: reconnecting…");
      this.retry = setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    });
  }
}
