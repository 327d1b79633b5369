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

// The numbers grow in memory whatever the storage does (a full or blocked storage would
// otherwise give two moves one number, and the server would drop the second); the
// storage carries them over to the next visit.
let lastSeq = load(SEQ_KEY, 0);

function nextSeq() {
  lastSeq += 1;
  store(SEQ_KEY, lastSeq);
  return lastSeq;
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

// A game's record brought up to date with what an action changed (an answer's `changes`),
// or null when the record is of another version than the one changed (another page or
// device played the game since): then the whole game is read again.
export function patched(record, changes) {
  if (!record || changes.base !== record.version) return null;
  const next = { ...record, version: changes.version };
  for (const key of ["values", "sources", "corner", "centre", "colours", "forced", "timer", "solved",
    "can_undo", "can_redo", "mode", "notation", "auto_fill", "verdict", "log_total"]) {
    if (key in changes) next[key] = changes[key];
  }
  if (changes.history) {
    const old = record.history;
    next.history = {
      undo: windowed(old.undo, old.undo_total, changes.history.undo, old.shown),
      redo: windowed(old.redo, old.redo_total, changes.history.redo, old.shown),
      undo_total: changes.history.undo_total, redo_total: changes.history.redo_total, shown: old.shown,
    };
  }
  if (changes.log) next.log = windowed(record.log, record.log_total, changes.log, record.log_shown);
  if (changes.receipts) {
    const receipts = { ...record.receipts };
    for (const [client, seq] of Object.entries(changes.receipts)) { delete receipts[client]; receipts[client] = seq; }
    const keys = Object.keys(receipts);
    for (const client of keys.slice(0, Math.max(0, keys.length - changes.receipts_kept))) delete receipts[client];
    next.receipts = receipts;
  }
  return next;
}

// The last `shown` items of a list of `total` items whose last ones `window` holds, after
// the whole list changed as [drop, keep, tail] tells (absent: it did not change).
function windowed(window, total, change, shown) {
  if (!change) return window;
  const [drop, keep, tail] = change;
  const start = total - window.length;
  const first = Math.max(drop, start) - start;
  const last = Math.max(first, drop + keep - start);
  return window.slice(first, last).concat(tail).slice(-shown);
}

const KEPT_RECORDS = 6;  // games whose last record the browser keeps, for offline play

function remove(key) { try { localStorage.removeItem(key); } catch { /* nothing kept */ } }

// The last confirmed record of the few games played last, so a game opens offline.
export const saved = {
  record: (id) => load(`numberplace-record:${id}`, null),
  keep: (record) => {
    const ids = [record.id, ...load("numberplace-records", []).filter((id) => id !== record.id)];
    for (const old of ids.splice(KEPT_RECORDS)) remove(`numberplace-record:${old}`);
    store("numberplace-records", ids);
    store(`numberplace-record:${record.id}`, record);
  },
  forget: (id) => { remove(`numberplace-record:${id}`); remove(`numberplace-outbox:${id}`); },
};

// One game's outbox. `onAnswer(answer, body)` gets every answer in order; `onRefused(error,
// body)` an action the server refused (a 4xx: it will never be taken, so it is dropped);
// `onLine(online)` when the server is reached again or lost. An outbox the page has left
// (another game opened) still sends its moves, telling no one.
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
    this.left = false;
  }

  // The moves not yet confirmed, oldest first.
  pending() { return this.queue.filter((item) => item.keep).map((item) => item.body); }

  // Send an action after those before it. `keep`: a move, kept in storage until the
  // server has it; otherwise (a question: a hint, a check) it is asked only while the
  // server is reached, and its promise gives the answer (or rejects).
  push(body, keep) {
    // answered with what changed, not the whole game (see `patched`)
    const item = { body: { ...body, client: clientId, seq: nextSeq(), answer: "changes" }, keep };
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
    if (this.sending) return;
    this.sending = true;
    try {
      while (this.queue.length) {
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
          if (!this.left) this.handlers.onRefused(error, item.body);
          continue;
        }
        this.queue.shift();
        this.persist();
        this.setOnline(true);
        this.delay = 500;
        if (!this.left) this.handlers.onAnswer(answer, item.body);
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
    if (!this.left) this.handlers.onLine(online);
  }

  // Try at once (the browser says the network is back).
  wake() { this.delay = 500; clearTimeout(this.timer); this.kick(); }

  // The page goes to another game: questions are dropped, moves still go out.
  leave() {
    this.left = true;
    for (const item of this.queue.filter((i) => !i.keep)) item.reject?.(Object.assign(new Error("left"), { left: true }));
    if (!this.sending) this.queue = this.queue.filter((i) => i.keep);
  }
}

// Send the moves other games left waiting (a game played offline, then another opened).
export function drainOthers(currentId) {
  let keys = [];
  try { keys = Object.keys(localStorage).filter((k) => k.startsWith("numberplace-outbox:")); }
  catch { return; }
  for (const key of keys) {
    const id = key.slice("numberplace-outbox:".length);
    if (id === currentId || !load(key, []).length) continue;
    const box = new Outbox(id, {});
    box.leave();
    box.kick();
  }
}
