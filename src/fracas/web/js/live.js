// The live updates of one conflict: a WebSocket that resumes from its cursor after a drop.

const FINAL = new Set([4401, 4403, 4404]); // revoked, not allowed, unknown: do not retry
const LOST = "connection lost: reconnecting…";
// The device has no network at all (the browser knows it at once: a phone's wifi dropped):
// said as it is, rather than "live" until a ping goes unanswered.
const OFFLINE = "offline: no network (reconnects by itself once it is back)";

function lost() {
  return navigator.onLine === false ? OFFLINE : LOST;
}
// The page's timers of keeping in touch: a ping every pingMs; a socket that has sent nothing
// (not even a pong) for deadMs is taken for dead (a phone that changed networks keeps a socket
// open that nothing ever reaches); the table's list of conflicts asked for every conflictsMs;
// a "Done: …" at the foot of the screen stays at least doneMs once the table has moved on.
// (A page may set window.fracasTiming first: the tests shorten them.)
export const TIMING = { pingMs: 15000, deadMs: 40000, conflictsMs: 20000, doneMs: 6000,
  ...(window.fracasTiming || {}) };

/** A subscription; onFrame(frame) for each frame, onStatus(state, text, code) on each change
 * (`code`: the close code, once the server closed it for good). */
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
    this.heard = 0;  // when the socket last sent anything
    window.addEventListener("online", () => this.reconnectNow());
    window.addEventListener("offline", () => this.offline());
    document.addEventListener("visibilitychange", () => { if (!document.hidden) this.check(); });
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

  // Back from the background (or asleep): ask the server, and start anew if it does not answer.
  check() {
    const socket = this.socket;
    if (this.stopped || !socket || socket.readyState !== WebSocket.OPEN) return this.reconnectNow();
    const asked = Date.now();
    socket.send('{"type":"ping"}');
    setTimeout(() => { if (this.socket === socket && this.heard < asked) this.dropped(socket); },
      Math.min(5000, TIMING.deadMs));
  }

  // The network is gone: nothing reaches the socket any more, though it may not close for a
  // minute. It is given up at once (the page says offline); "online" connects anew.
  offline() {
    if (this.stopped) return;
    if (this.socket) this.dropped(this.socket);
    else this.onStatus("down", lost());
  }

  // A socket that went silent: forget it (its late close is ignored) and connect anew.
  dropped(socket) {
    if (this.socket !== socket || this.stopped) return;
    clearInterval(this.pinger);
    this.socket = null;
    socket.close();
    this.onStatus("down", lost());
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
      this.heard = Date.now();
      this.onStatus("live", this.cursor ? "live again (reconnected)" : "live");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => {
        // (a hidden page's timers are slowed to once a minute: it is judged when shown again)
        if (!document.hidden && Date.now() - this.heard > TIMING.deadMs) this.dropped(socket);
        else if (socket.readyState === WebSocket.OPEN) socket.send('{"type":"ping"}');
      }, TIMING.pingMs);
    });
    socket.addEventListener("message", (event) => {
      if (this.socket !== socket) return;  // a socket given up for dead: the new one resumes
      this.heard = Date.now();
      const frame = JSON.parse(event.data);
      if (frame.cursor) this.cursor = frame.cursor;
      this.onFrame(frame);
    });
    socket.addEventListener("close", (event) => {
      clearInterval(this.pinger);
      if (this.socket !== socket || this.stopped) return;
      if (FINAL.has(event.code)) {
        this.onStatus("closed", event.code === 4401
          ? "this link was revoked or is not valid any more" : "closed by the server", event.code);
        return;
      }
      this.onStatus("down", lost());
      this.retry = setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    });
  }
}
