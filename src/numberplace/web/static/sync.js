// The line to the server: the player's actions go out one after another, in order, each
// numbered (client id, sequence) so that one sent twice after a lost answer is applied
// once. Moves wait in the browser's storage while the server cannot be reached and go out
// when it can again; a game's last confirmed record is kept there too, so a started game
// opens and plays on without the network.

const CLIENT_KEY = "numberplace-client";
const SEQ_KEY = "numberplace-seq";
const RETRY_MAX = 8000;  // ms between tries at most, while the server is away

function store(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* full or blocked: kept in memory */ }
}

function load(key, fallback) {
  try { const text = localStorage.getItem(key); return text === null ? fallback : JSON.parse(text); }
  catch { return fallback; }
}

export function randomId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
}

export const clientId = load(CLIENT_KEY, null) || (() => { const id = randomId(); store(CLIENT_KEY, id); return id; })();

function nextSeq() {
  const seq = load(SEQ_KEY, 0) + 1;
  store(SEQ_KEY, seq);
  return seq;
}

// A request to the API: its JSON answer, or an Error with the server's one-line reason
// (`status` set for an answer the server gave, absent when it could not be reached).
export async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  let answer;
  try { answer = await fetch(path, options); }
  catch { throw Object.assign(new Error("The server cannot be reached."), { offline: true }); }
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    const error = new Error(data.error || `The server answered ${answer.status}.`);
    error.status = answer.status;
    if (answer.status >= 500) error.offline = true;  // try again later, as when unreachable
    throw error;
  }
  return data;
}

export const saved = {
  record: (id) => load(`numberplace-record:${id}`, null),
  keep: (record) => store(`numberplace-record:${record.id}`, record),
  forget: (id) => { try { localStorage.removeItem(`numberplace-record:${id}`); localStorage.removeItem(`numberplace-outbox:${id}`); } catch { /* nothing kept */ } },
};

// One game's outbox. `onAnswer(answer, body)` gets every answer in order; `onRefused(error,
// body)` an action the server refused (a 4xx: it will never be taken, so it is dropped);
// `onLine(online)` when the server is reached again or lost.
export class Outbox {
  constructor(gameId, { onAnswer, onRefused, onLine }) {
    this.gameId = gameId;
    this.key = `numberplace-outbox:${gameId}`;
    this.queue = load(this.key, []);
    this.handlers = { onAnswer, onRefused, onLine };
    this.sending = false;
    this.online = true;
    this.delay = 500;
    this.timer = null;
    this.closed = false;
  }

  // The moves not yet confirmed, oldest first.
  pending() { return this.queue.filter((item) => item.keep).map((item) => item.body); }

  // Send an action after those before it. `keep`: a move, kept in storage until the
  // server has it; otherwise (a question: a hint, a check) it is asked only while the
  // server is reached, and its promise gives the answer (or rejects).
  push(body, keep) {
    const item = { body: { ...body, client: clientId, seq: nextSeq() }, keep };
    const answered = new Promise((resolve, reject) => { item.resolve = resolve; item.reject = reject; });
    if (!keep && !this.online && this.queue.length) {
      item.reject(Object.assign(new Error("offline"), { offline: true }));
      return answered;
    }
    this.queue.push(item);
    this.persist();
    this.kick();
    return answered;
  }

  persist() { store(this.key, this.queue.filter((item) => item.keep).map(({ body, keep }) => ({ body, keep }))); }

  // Drop what the server already has (a fresh record's receipts tell it); called before
  // anything is sent.
  settle(receipts) {
    const done = (receipts || {})[clientId] || 0;
    const before = this.queue.length;
    this.queue = this.queue.filter((item) => item.body.seq > done);
    if (this.queue.length !== before) this.persist();
  }

  async kick() {
    if (this.sending || this.closed) return;
    this.sending = true;
    try {
      while (this.queue.length && !this.closed) {
        const item = this.queue[0];
        let answer;
        try {
          answer = await api(`/api/games/${encodeURIComponent(this.gameId)}/actions`, item.body);
        } catch (error) {
          if (error.offline) {
            this.setOnline(false);
            // a question is not kept for later: its moment has passed
            for (const q of this.queue.filter((i) => !i.keep)) q.reject?.(error);
            this.queue = this.queue.filter((i) => i.keep);
            this.retry();
            return;
          }
          this.queue.shift();
          this.persist();
          item.reject?.(error);
          this.handlers.onRefused(error, item.body);
          continue;
        }
        this.queue.shift();
        this.persist();
        this.setOnline(true);
        this.delay = 500;
        this.handlers.onAnswer(answer, item.body);
        item.resolve?.(answer);
      }
    } finally {
      this.sending = false;
    }
  }

  retry() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.timer = null; this.kick(); }, this.delay);
    this.delay = Math.min(RETRY_MAX, this.delay * 2);
  }

  setOnline(online) {
    if (online === this.online) return;
    this.online = online;
    this.handlers.onLine(online);
  }

  // Try at once (the browser says the network is back).
  wake() { this.delay = 500; clearTimeout(this.timer); this.kick(); }

  close() { this.closed = true; clearTimeout(this.timer); }
}
