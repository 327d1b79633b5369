// The game page. A move is applied here at once by the same rules the server keeps
// (rules.js), drawn, and sent; the server's answer confirms it or corrects it. Moves made
// while the server cannot be reached wait in the browser and go out when it can again.

import { buildBoard, fillCell } from "./board.js";
import * as rules from "./rules.js";
import { Outbox, api, drainOthers, patched, randomId, saved } from "./sync.js";

const $ = (id) => document.getElementById(id);
const MODES = ["normal", "corner", "centre", "colour"];
const MODE_KEYS = { z: "normal", x: "corner", c: "centre", v: "colour" };
const LEVEL_NAMES = ["Easy", "Medium", "Difficult", "Extremely Difficult", "Fiendish", "Trial and Error"];
const DEFAULTS = {
  notation: "rc", highlightSame: true, highlightPeers: true, showMistakes: false,
  showCandidates: false, showTimer: true, theme: "system", lastShape: "9x9", lastLevel: {}, lastMode: "book",
};

// -- what the page holds ----------------------------------------------------------------

const settings = { ...DEFAULTS, ...load("numberplace-settings", {}) };
const player = load("numberplace-player", null) || (() => { const id = randomId(); store("numberplace-player", id); return id; })();

let record = null;       // the server's last confirmed record of the game
let state = null;        // the board as the page shows it: the record and the moves not yet confirmed
let geo = null;          // the shape's houses, cages and peers
let outbox = null;
let cells = [];
let shapeKey = "";
let selection = new Set();
let focus = 0;
let mode = "normal";
let armed = null;        // digit first: the value a click on a cell writes
let hint = null;         // the last hint, and the position it was for
let hintFor = "";
let hintAsked = null;     // the deepest hint asked for whose answer is still coming
let mistakes = new Set();
let clock = { base: 0, at: 0 };
let announcedSolved = false;

function load(key, fallback) {
  try { const text = localStorage.getItem(key); return text === null ? fallback : JSON.parse(text); }
  catch { return fallback; }
}

function store(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* storage full or blocked */ }
}

function saveSettings() { store("numberplace-settings", settings); }

function say(text, warn = false) {
  const box = $("message");
  box.textContent = text;
  box.classList.toggle("warn", warn);
}

function name(cell) { return rules.cellName(record.shape, cell, settings.notation); }

// -- games -------------------------------------------------------------------------------

// A new game from the server (generated, pasted or the daily); errors go to `report`.
// `wanted()` says, when it comes, whether it is still wanted (a dialog not cancelled).
async function start(path, body, report = (m) => say(m, true), wanted = () => true) {
  say("Making the puzzle…");
  try {
    const made = await api(path, { notation: settings.notation, player, ...body });
    if (!wanted()) { say(""); return null; }
    show(made, true);
    if (made.note) say(made.note);
    else if (!made.verdict || made.verdict.status === "unique") say("");
    return made;
  } catch (error) {
    say("");
    report(error.offline && !error.status ? "A new game needs the server, which cannot be reached now." : error.message);
    return null;
  }
}

// The whole game again, when an answer's changes are of another version than the page's.
async function reread(id) {
  try {
    const game = await api(`/api/games/${encodeURIComponent(id)}`);
    if (record && game.id === record.id) show(game);
  } catch { /* the next answer or a reload tries again */ }
}

async function open(id) {
  try {
    show(await api(`/api/games/${encodeURIComponent(id)}`), true);
    return true;
  } catch (error) {
    const kept = saved.record(id);
    if (error.offline && kept) {
      show(kept, true);
      setLine(false);
      return true;
    }
    if (error.status === 404) saved.forget(id);
    return false;
  }
}

// Take a record of a game: a game opened (`fresh`) or the server's answer to a move.
function show(next, fresh = false) {
  const other = !record || record.id !== next.id;
  if (other && outbox && state?.running && !state.solved) {
    // the game left stops counting time: its clock waits for the player's return
    outbox.push({ action: "pause" }, true).catch(() => null);
  }
  record = next;
  saved.keep(record);
  store("numberplace-game", record.id);
  if (other) {
    outbox?.leave();
    outbox = new Outbox(record.id, { onAnswer, onRefused, onLine: setLine });
    history.replaceState(null, "", "#game=" + record.id);
    mistakes = new Set();
    hint = null;
    announcedSolved = record.solved;
  }
  if (fresh) outbox.settle(record.receipts);
  // a Wordoku has a 9x9's shape: its symbols make it another board
  const key = JSON.stringify(record.shape) + record.symbols;
  if (key !== shapeKey) {
    geo = rules.geometry(record.shape);
    cells = buildBoard($("board"), record.shape);
    shapeKey = key;
    selection = new Set();
    focus = Math.max(0, record.givens.findIndex((v) => v === 0));
    armed = null;
    layoutPad();
  }
  if (other && !document.querySelector("dialog[open]")) focusBoard();
  rebuild();
  if (fresh) {
    if (record.notation && record.notation !== settings.notation) send({ action: "notation", value: settings.notation }, true);
    if (load(`numberplace-away:${record.id}`, false)) {
      // paused only because the page was closed or reloaded: on again
      store(`numberplace-away:${record.id}`, false);
      if (!state.running && !state.solved) act({ action: "resume" });
    }
    const verdict = record.verdict;
    $("verdict-chip")?.remove();
    if (verdict && verdict.status !== "unique") {
      say(verdict.message, true);
      const chip = Object.assign(document.createElement("button"), { type: "button", id: "verdict-chip", className: "line-state warn-chip" });
      chip.append(Object.assign(document.createElement("span"), { textContent: "!", ariaHidden: "true" }),
        Object.assign(document.createElement("span"), { className: "label", textContent: "Check this puzzle" }));
      chip.addEventListener("click", () => say(verdict.message, true));
      $("shape-name").after(chip);
    }
    if (outbox.queue.length) outbox.kick();
  }
  render();
}

// The board as shown: the confirmed record, then every move still on its way.
function rebuild() {
  state = rules.stateFrom(record);
  for (const body of outbox.pending()) rules.apply(state, geo, body, settings.notation, record.symbols);
  clock = { base: record.timer.elapsed, at: performance.now() };
  if (!state.solved && outbox.pending().length && rules.solved(geo, rules.values(state))) state.solved = true;
  if (state.solved) state.running = false;
}

function onAnswer(answer, body) {
  if (answer.game && answer.game.id !== record.id) return;
  const game = answer.changes ? patched(record, answer.changes) : answer.game;
  if (answer.changes && !game) reread(record.id);  // played elsewhere meanwhile
  if (game) {
    const wasSolved = record.solved;
    show(game);
    if (record.solved && !wasSolved) celebrate();
  }
  if (answer.ok === false && !body.quiet) say(answer.message, true);
  if (settings.showMistakes && body.action === "enter" && body.value) checkMistakes(true);
}

function onRefused(error, body) {
  say(error.message, true);
  if (body && outbox) { rebuild(); render(); }
}

function setLine(online) {
  const kept = outbox ? outbox.pending().length : 0;
  $("line-state").hidden = online;
  $("line-state").textContent = kept ? `Offline · ${kept} kept` : "Offline";
  $("line-state").title = kept ? `The server cannot be reached: ${kept} move${kept > 1 ? "s are" : " is"} kept and will be saved when it answers.` : "The server cannot be reached.";
  if (online && record) say("Back online: your moves are saved.");
}

// Send an action: a move (`keep`) waits for the server as long as it takes; a question
// needs the server now.
function send(body, keep) {
  const sent = outbox.push(body, keep);
  if (keep && !outbox.online) setLine(false);
  return sent.catch((error) => {
    if (error.offline) say("That needs the server, which cannot be reached now; your moves are kept.", true);
    return null;  // a question of a game left, or one the server refused (said by onRefused)
  });
}

// A move of the player: applied and drawn now, then sent.
function act(body) {
  if (!record || (isPaused() && body.action !== "resume")) return;
  const running = state.running;
  const at = elapsed();
  const done = rules.apply(state, geo, body, settings.notation, record.symbols);
  if (state.running !== running) {
    // the clock stops or starts where it stands now
    clock = { base: at, at: performance.now() };
    send(body, true);
    render();
    return;
  }
  if (done.remote) {
    send(body, true);
    say(body.action === "undo" ? "Undoing an older move…" : body.action === "redo" ? "Redoing…" : "");
    render();
    return;
  }
  if (!done.ok) { say(done.message, true); render(); return; }
  if (!done.moved) return;
  send(body, true);
  if (body.action === "enter" || body.action === "erase") for (const c of body.cells) mistakes.delete(c);
  say("");
  render();
  const vals = rules.values(state);
  if (!state.solved && rules.solved(geo, vals)) {
    state.solved = true;
    state.running = false;
    clock = { base: elapsed(), at: performance.now() };
    celebrate();
  }
}

function celebrate() {
  if (announcedSolved) return;
  mistakes = new Set();
  announcedSolved = true;
  say(`Solved in ${timeText(elapsed())}! Well done.`);
  $("board-wrap").classList.add("solved");
}

// -- drawing -----------------------------------------------------------------------------

function position() { return state ? rules.values(state).join(",") : ""; }

function render() {
  if (!record) return;
  const vals = rules.values(state);
  const view = {
    shape: record.shape, symbols: record.symbols, givens: record.givens, values: vals,
    corner: state.layers.corner, centre: state.layers.centre, colours: state.layers.colour,
    sources: vals.map((v, c) => (state.forced.has(c) && !state.layers.value[c] ? 0 : state.layers.source[c])),
  };
  const roles = new Map();
  const houses = new Set();
  const hinted = new Set();
  if (hint && hintFor === position()) {
    hint.house_cells.flat().forEach((c) => houses.add(c));
    (hint.cage_cells || []).flat().forEach((c) => houses.add(c));
    hint.cells.forEach((c) => hinted.add(c));
    for (const [role, c, v] of hint.highlights) {
      if (!roles.has(c)) roles.set(c, new Map());
      roles.get(c).set(v, role);
    }
  }
  const showCands = settings.showCandidates;
  const cands = showCands || roles.size ? rules.candidates(geo, vals) : null;
  const conflicts = rules.conflicts(geo, vals);
  const focusValue = vals[focus];
  const peers = settings.highlightPeers && selection.size === 1 ? geo.peers[focus] : new Set();
  cells.forEach((el, i) => {
    const extra = {};
    if (cands && !vals[i] && (showCands || roles.has(i))) {
      // a hint's removed candidates stay visible, marked, even where the board has them out
      let mask = cands[i];
      for (const v of roles.get(i)?.keys() || []) mask |= 1 << (v - 1);
      extra.candidates = mask;
      extra.roles = roles.get(i);
    }
    const selected = selection.has(i);
    const clash = conflicts.has(i), wrong = mistakes.has(i) && vals[i] !== 0;
    extra.said = [clash && "clash", wrong && "mistake", hinted.has(i) && "hinted", houses.has(i) && "in the hint"]
      .filter(Boolean).join(", ");
    fillCell(el, i, view, extra);
    el.classList.toggle("selected", selected);
    el.classList.toggle("peer", !selected && peers.has(i));
    el.classList.toggle("same", !selected && settings.highlightSame && focusValue !== 0 && vals[i] === focusValue);
    el.classList.toggle("house", houses.has(i));
    el.classList.toggle("hinted", hinted.has(i));
    el.classList.toggle("conflict", clash);
    el.classList.toggle("mistake", wrong);
    el.setAttribute("aria-selected", selected ? "true" : "false");
    el.tabIndex = i === focus ? 0 : -1;
  });
  renderPad(vals);
  $("undo").disabled = !state.undoTotal;
  $("redo").disabled = !state.redoTotal;
  $("auto-fill").checked = record.auto_fill;
  $("show-candidates").checked = settings.showCandidates;
  const paused = isPaused();
  $("pause").setAttribute("aria-pressed", paused ? "true" : "false");
  const covered = !$("paused").hidden;
  $("paused").hidden = !paused;
  if (paused && !covered && !document.querySelector("dialog[open]")) $("resume").focus({ preventScroll: true });
  $("board").inert = paused;
  $("board-wrap").classList.toggle("solved", Boolean(state.solved));
  const meta = record.meta || {};
  const level = meta.level ? ` · ${LEVEL_NAMES[meta.level - 1] || `level ${meta.level}`}` : "";
  const label = meta.daily ? `Daily ${meta.daily}` : (meta.label || record.shape.name);
  $("shape-name").textContent = label + level + (record.mode === "free" ? " · free rules" : "");
  $("save-sdo").textContent = record.shape.cages ? "Save the puzzle" : "Save the puzzle (.sdo)";
  $("timer").classList.toggle("hidden", !settings.showTimer);
  const log = $("log");
  const written = `${record.id}|${record.log.length}|${record.log[record.log.length - 1] || ""}`;
  if (log.dataset.written !== written) {
    log.dataset.written = written;
    log.replaceChildren(...record.log.map((line) => Object.assign(document.createElement("li"), { textContent: line })));
    log.scrollTop = log.scrollHeight;
  }
  tick();
}

// The keys play on the board (not on the button that asked for a new game).
function focusBoard() { cells[focus]?.focus({ preventScroll: true }); }

function isPaused() { return Boolean(state && !state.running && !state.solved); }

// The keypad's shape: a square block of symbols (3x3 for 9, 4x4 for 16, 5x5 for 25).
function layoutPad() {
  const n = record.shape.size;
  const cols = Math.ceil(Math.sqrt(n));
  const rows = Math.ceil(n / cols);
  const keyRows = Math.max(rows + 1, 4);
  const root = document.documentElement.style;
  root.setProperty("--pad-cols", cols);
  root.setProperty("--pad-rows", rows);
  root.setProperty("--key-rows", keyRows);
  root.setProperty("--pad-span", keyRows - 1);
  const pad = $("pad");
  pad.replaceChildren();
  for (let v = 1; v <= n; v++) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.value = v;
    button.addEventListener("click", () => padPress(v));
    pad.append(button);
  }
}

function renderPad(vals) {
  const n = record.shape.size;
  const counts = new Array(n + 1).fill(0);
  vals.forEach((v) => { counts[v] += 1; });
  const copies = vals.length / n;
  // a Kakuro's runs hold each digit at most once, not each exactly once: nothing to count
  const counted = record.shape.kind !== "kakuro";
  const pad = $("pad");
  pad.className = n > 9 ? `${mode} many` : mode;
  pad.querySelectorAll("button").forEach((button) => {
    const v = Number(button.dataset.value);
    const symbol = record.symbols[v - 1];
    const left = copies - counts[v];
    const key = `${mode}|${symbol}|${counted ? left : ""}|${armed === v}`;
    if (button.dataset.drawn === key) return;
    button.dataset.drawn = key;
    if (mode === "colour") {
      button.replaceChildren(String(v));
      button.className = v <= 9 ? `swatch col${v}` : "";
      button.disabled = v > 9;
      button.setAttribute("aria-label", `Colour ${v}`);
    } else {
      const parts = [symbol];
      if (counted && mode === "normal") {
        // how many are left to place: seen, not said (the button's name is its symbol)
        const count = Object.assign(document.createElement("span"), { className: "left", textContent: String(Math.max(left, 0)) });
        count.setAttribute("aria-hidden", "true");
        parts.push(count);
      }
      button.replaceChildren(...parts);
      button.className = (counted && left <= 0 ? "done" : "") + (armed === v ? " armed" : "");
      button.disabled = false;
      if (mode === "normal") button.removeAttribute("aria-label");
      else button.setAttribute("aria-label", `${mode} mark ${symbol}`);
    }
    button.setAttribute("aria-pressed", armed === v ? "true" : "false");
  });
}

function timeText(seconds) {
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return h ? `${h}:${String(m).padStart(2, "0")}:${String(r).padStart(2, "0")}` : `${m}:${String(r).padStart(2, "0")}`;
}

function elapsed() {
  if (!state) return 0;
  return clock.base + (state.running ? (performance.now() - clock.at) / 1000 : 0);
}

function tick() {
  const text = timeText(elapsed());
  if ($("timer").textContent !== text) $("timer").textContent = text;
}

// -- input -------------------------------------------------------------------------------

function chosen() { return selection.size ? [...selection] : [focus]; }

function write(value, where = chosen(), as = mode) {
  if (as === "normal") act({ action: "enter", cells: where, value });
  else if (as === "colour") act({ action: "paint", cells: where, value });
  else act({ action: "mark", cells: where, value, kind: as });
}

function erase(where = chosen()) {
  if (mode === "colour") act({ action: "paint", cells: where, value: 0 });
  else act({ action: "erase", cells: where });
}

function padPress(v) {
  if (!record || isPaused()) return;
  if (selection.size === 0 || armed !== null) {  // digit first: arm the digit, then click cells
    armed = armed === v ? null : v;
    say(armed === null ? "" : `Click cells to write ${mode === "colour" ? `colour ${v}` : record.symbols[v - 1]}.`);
    render();
    return;
  }
  write(v);
}

function setMode(next) {
  mode = next;
  document.querySelectorAll("#modes [data-mode]").forEach((b) => {
    b.setAttribute("aria-checked", b.dataset.mode === mode ? "true" : "false");
    b.tabIndex = b.dataset.mode === mode ? 0 : -1;
  });
  if (record) renderPad(rules.values(state));
}

function select(i, add) {
  if (!add) selection = new Set();
  selection.add(i);
  focus = i;
  render();
  cells[i].focus({ preventScroll: true });
}

function neighbour(i, dr, dc) {
  const [r, c] = record.shape.cells[i];
  const at = new Map(record.shape.cells.map(([rr, cc], k) => [rr * 1000 + cc, k]));
  const span = Math.max(record.shape.rows, record.shape.cols);
  for (let step = 1; step < span; step++) {
    const rr = r + dr * step, cc = c + dc * step;
    if (rr < 0 || cc < 0 || rr >= record.shape.rows || cc >= record.shape.cols) break;
    const k = at.get(rr * 1000 + cc);
    if (k !== undefined) return k;
  }
  return i;
}

// The symbol a key names: its character, or for a digit key with Shift (which types "!"
// and the like) the digit on the key.
function symbolOf(event) {
  const symbols = record.symbols.toUpperCase();
  const digit = /^(Digit|Numpad)([0-9])$/.exec(event.code || "");
  const ch = digit ? digit[2] : (event.key.length === 1 ? event.key.toUpperCase() : "");
  const v = ch ? symbols.indexOf(ch) + 1 : 0;
  return v;
}

function onKey(event) {
  if (!record || document.querySelector("dialog[open]")) return;
  if (event.target.closest && event.target.closest("input, textarea, select, [popover]")) return;
  if (event.target.closest && event.target.closest("button, a, summary") && (event.key === " " || event.key === "Enter")) return;
  if (isPaused()) return;
  const key = event.key;
  const ctrl = event.ctrlKey || event.metaKey;
  const lower = key.length === 1 ? key.toLowerCase() : "";
  if (ctrl && lower === "z") { event.preventDefault(); act({ action: event.shiftKey ? "redo" : "undo" }); return; }
  if (ctrl && lower === "y") { event.preventDefault(); act({ action: "redo" }); return; }
  const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (arrows[key]) {
    event.preventDefault();
    select(neighbour(focus, ...arrows[key]), event.shiftKey || ctrl);
    return;
  }
  if (key === "Backspace" || key === "Delete") { event.preventDefault(); erase(); return; }
  if (key === "Escape") { selection = new Set(); armed = null; hint = null; render(); return; }
  if (key === " ") { event.preventDefault(); setMode(MODES[(MODES.indexOf(mode) + 1) % MODES.length]); return; }
  if (event.altKey) return;
  let v = symbolOf(event);
  if (mode === "colour" && !event.shiftKey && !ctrl) v = /^[1-9]$/.test(key) ? Number(key) : 0;
  if (v > 0) {
    event.preventDefault();
    write(v, chosen(), ctrl ? "centre" : event.shiftKey ? "corner" : mode);
    return;
  }
  if (!ctrl && MODE_KEYS[lower]) { event.preventDefault(); setMode(MODE_KEYS[lower]); }
}

let dragging = false;

function cellAt(x, y) {
  const target = document.elementFromPoint(x, y);
  const el = target && target.closest && target.closest(".cell");
  return el ? Number(el.dataset.cell) : -1;
}

function onPointerDown(event) {
  if (!record || event.button > 0) return;
  const i = cellAt(event.clientX, event.clientY);
  if (i < 0) return;
  event.preventDefault();
  if (armed !== null) {
    focus = i;
    write(armed, [i]);
    return;
  }
  dragging = true;
  const add = event.shiftKey || event.ctrlKey || event.metaKey;
  if (add && selection.has(i) && selection.size > 1) {
    selection.delete(i);
    render();
    return;
  }
  if (!add && selection.size === 1 && selection.has(i)) {
    // a second tap on the selected cell lets it go (then a symbol can be picked first)
    dragging = false;
    selection = new Set();
    render();
    return;
  }
  select(i, add);
}

function onPointerMove(event) {
  if (!dragging) return;
  if (event.pointerType === "mouse" && !event.buttons) { dragging = false; return; }
  const i = cellAt(event.clientX, event.clientY);
  if (i >= 0 && !selection.has(i)) {
    selection.add(i);
    focus = i;
    render();
  }
}

// -- helpers from the server ---------------------------------------------------------------

async function onHint() {
  if (!record || isPaused()) return;
  const here = position();
  // a second press before the first answer asks one tier deeper, as it would after it
  const shown = hint && hintFor === here ? hint.tier : 0;
  const asked = hintAsked && hintAsked.here === here ? hintAsked.tier : 0;
  const tier = Math.min(3, Math.max(shown, asked) + 1);
  hintAsked = { here, tier };
  const answer = await send({ action: "hint", tier }, false);
  if (hintAsked && hintAsked.here === here && hintAsked.tier === tier) hintAsked = null;
  if (!answer) return;
  if (hint && hintFor === here && hint.tier > answer.hint.tier) return;  // a deeper one came first
  hint = answer.hint;
  hintFor = here;
  say(`Hint ${hint.tier}/3: ${hint.text}`);
  render();
}

async function checkMistakes(quiet = false) {
  const answer = await send({ action: "check" }, false);
  if (!answer) return;
  if (answer.status && answer.status !== "unique") { if (!quiet) say(answer.message, true); return; }
  mistakes = new Set(answer.mistakes);
  if (!quiet) say(mistakes.size ? `${mistakes.size} mistake${mistakes.size > 1 ? "s" : ""}, marked in red.` : "No mistakes so far.");
  render();
}

async function serverMove(action) {
  if (!record || isPaused()) return;
  const answer = await send({ action }, false);
  if (!answer) return;
  if (answer.ok === false) return;  // said by onAnswer
  if (action === "step") say(answer.message || record.log[record.log.length - 1]);
}

async function onShare() {
  const vals = rules.values(state);
  const progress = vals.map((v, i) => (record.givens[i] || !v ? "." : record.symbols[v - 1])).join("");
  const params = new URLSearchParams({ p: record.share.text });
  if (record.share.shape) params.set("shape", record.share.shape);
  if (record.share.alphabet) params.set("alphabet", record.share.alphabet);
  if (progress.replace(/\./g, "")) params.set("v", progress);
  const link = `${location.origin}/#${params.toString()}`;
  try { await navigator.clipboard.writeText(link); say("The link is copied: " + link); }
  catch { say("Share this link: " + link); }
}

function download(kind) {
  const a = document.createElement("a");
  a.href = `/api/games/${record.id}/file?as=${kind}`;
  a.download = "";
  document.body.append(a);
  a.click();
  a.remove();
}

// -- dialogs -----------------------------------------------------------------------------

let offered = null;  // the shapes and levels the server makes

async function openNewDialog() {
  $("new-error").textContent = "";
  if (!offered) {
    try { offered = await api("/api/shapes"); }
    catch (error) { say(error.offline ? "A new game needs the server, which cannot be reached now." : error.message, true); return; }
    $("new-shape").replaceChildren(...offered.shapes.map((s) => new Option(shapeLabel(s), s)));
  }
  $("new-shape").value = offered.shapes.includes(settings.lastShape) ? settings.lastShape : "9x9";
  $("new-mode").value = settings.lastMode === "free" ? "free" : "book";
  fillLevels();
  $("new-dialog").showModal();
}

function shapeLabel(s) {
  const names = { "9x9": "Classic 9x9", diagonal: "Diagonal (X)", jigsaw: "Jigsaw", samurai: "Samurai",
    wordoku: "Wordoku (letters)", killer: "Killer", "kakuro-10x10": "Kakuro 10x10" };
  return names[s] || s;
}

// A Kakuro or Killer is made at fewer levels than a Sudoku: offer the shape's own, the
// last one used for that shape chosen, else the first.
function fillLevels() {
  const shape = $("new-shape").value;
  const levels = (offered.sum_levels || {})[shape] || offered.levels;
  $("new-level").replaceChildren(...levels.map((level, k) => new Option(`${k + 1} ${level}`, String(k + 1))));
  const last = Number(settings.lastLevel[shape] || 1);
  $("new-level").value = String(last >= 1 && last <= levels.length ? last : 1);
}

async function startNew() {
  const shape = $("new-shape").value;
  const level = Number($("new-level").value) || 1;
  const gameMode = $("new-mode").value;
  settings.lastShape = shape;
  settings.lastLevel[shape] = level;
  settings.lastMode = gameMode;
  saveSettings();
  $("new-start").disabled = true;
  const made = await start("/api/games", { shape, level, mode: gameMode }, (m) => { $("new-error").textContent = m; },
    () => $("new-dialog").open);
  $("new-start").disabled = false;
  if (made) { $("new-dialog").close(); focusBoard(); }
}

async function startOwn() {
  const body = { puzzle: $("own-text").value };
  const shape = $("own-shape").value.trim();
  if (shape) body.shape = shape;
  if (!body.puzzle.trim()) { $("own-error").textContent = "Paste a puzzle or choose a file first."; return; }
  $("own-start").disabled = true;
  const made = await start("/api/games", body, (m) => { $("own-error").textContent = m; }, () => $("own-dialog").open);
  $("own-start").disabled = false;
  if (made) { $("own-dialog").close(); focusBoard(); }
}

function localDate() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

async function openDaily() {
  const made = await start("/api/daily", { date: localDate() });
  if (made && !made.note) say(`The daily puzzle of ${made.meta?.daily || localDate()}: the same for everyone today.`);
}

function openSettings() {
  const form = $("settings-form");
  for (const input of form.querySelectorAll("input")) {
    if (input.type === "checkbox") input.checked = Boolean(settings[input.name]);
    else input.checked = settings[input.name] === input.value;
  }
  $("settings-dialog").showModal();
}

function onSetting(event) {
  const input = event.target;
  if (!input.name) return;
  settings[input.name] = input.type === "checkbox" ? input.checked : input.value;
  saveSettings();
  if (input.name === "theme") applyTheme();
  if (input.name === "notation" && record) send({ action: "notation", value: settings.notation }, true);
  render();
}

function applyTheme() {
  const dark = settings.theme === "dark" || (settings.theme === "system" && matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.classList.toggle("dark", dark);
}

function ago(seconds) {
  const s = Date.now() / 1000 - seconds;
  if (s < 90) return "just now";
  if (s < 5400) return `${Math.round(s / 60)} minutes ago`;
  if (s < 129600) return `${Math.round(s / 3600)} hours ago`;
  return `${Math.round(s / 86400)} days ago`;
}

async function openGames() {
  const list = $("games-list");
  const body = $("stats-table").tBodies[0];
  list.replaceChildren(Object.assign(document.createElement("p"), { className: "muted", textContent: "Loading…" }));
  body.replaceChildren();
  $("streak").textContent = "";
  $("games-dialog").showModal();
  let games, stats;
  try {
    const tz = -new Date().getTimezoneOffset();
    [games, stats] = await Promise.all([api(`/api/players/${player}/games`), api(`/api/players/${player}/stats?tz=${tz}`)]);
  } catch (error) {
    list.firstChild.textContent = error.offline ? "Your games are listed when the server can be reached." : error.message;
    return;
  }
  list.replaceChildren(...(games.games.length ? games.games.map(gameButton)
    : [Object.assign(document.createElement("p"), { className: "muted", textContent: "No games yet." })]));
  const streak = stats.streak || { current: 0, best: 0 };
  const daily = stats.daily || { played: 0, solved: 0 };
  $("streak").textContent = `Streak: ${streak.current} day${streak.current === 1 ? "" : "s"} (best ${streak.best}). `
    + `Daily puzzles: ${daily.solved} solved of ${daily.played}.`;
  body.replaceChildren(...stats.stats.map((row) => {
    const tr = document.createElement("tr");
    const cellsOf = [shapeLabel(row.label), row.level ? LEVEL_NAMES[row.level - 1] || row.level : "Own puzzle",
      row.games, row.solved, row.best === null ? "–" : timeText(row.best), row.average === null ? "–" : timeText(row.average)];
    tr.append(...cellsOf.map((text) => Object.assign(document.createElement("td"), { textContent: String(text) })));
    return tr;
  }));
}

function gameButton(game) {
  const button = document.createElement("button");
  button.type = "button";
  const what = Object.assign(document.createElement("span"), {
    textContent: `${game.daily ? `Daily ${game.daily}` : shapeLabel(game.label)}${game.level ? ` · ${LEVEL_NAMES[game.level - 1] || game.level}` : ""}`,
  });
  const how = Object.assign(document.createElement("span"), {
    className: "when",
    textContent: `${game.solved ? "solved" : `${game.filled}/${game.cells}`} · ${timeText(game.elapsed)} · ${ago(game.updated)}`,
  });
  button.append(what, how);
  if (record && game.id === record.id) button.setAttribute("aria-current", "true");
  button.addEventListener("click", async () => {
    $("games-dialog").close();
    if (!(await open(game.id))) say("That game cannot be opened.", true);
  });
  return button;
}

// -- wiring ------------------------------------------------------------------------------

function menuDo(work) {
  return () => { $("menu").hidePopover?.(); work(); };
}

function toggleTools(open) {
  const helpers = $("helpers");
  const now = open ?? !helpers.classList.contains("open");
  helpers.classList.toggle("open", now);
  $("tools").setAttribute("aria-expanded", now ? "true" : "false");
}

function wire() {
  const board = $("board");
  board.addEventListener("pointerdown", onPointerDown);
  // the keypad takes clicks without taking the keyboard's focus from the board, so Space
  // and the symbol keys go on working after a click on it
  for (const keys of [$("pad"), $("modes"), document.querySelector(".edit-row")]) {
    keys.addEventListener("mousedown", (event) => event.preventDefault());
  }
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", () => { dragging = false; });
  window.addEventListener("pointercancel", () => { dragging = false; });
  document.addEventListener("keydown", onKey);
  document.querySelectorAll("#modes [data-mode]").forEach((b) => b.addEventListener("click", () => setMode(b.dataset.mode)));
  $("modes").addEventListener("keydown", (event) => {
    const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[event.key];
    if (!step) return;
    event.preventDefault();
    event.stopPropagation();
    setMode(MODES[(MODES.indexOf(mode) + step + MODES.length) % MODES.length]);
    document.querySelector(`#modes [data-mode="${mode}"]`).focus();
  });
  $("erase").addEventListener("click", () => erase());
  $("undo").addEventListener("click", () => act({ action: "undo" }));
  $("redo").addEventListener("click", () => act({ action: "redo" }));
  $("hint").addEventListener("click", onHint);
  $("step").addEventListener("click", () => serverMove("step"));
  $("solve").addEventListener("click", () => serverMove("solve"));
  $("check").addEventListener("click", () => checkMistakes());
  $("diagnose").addEventListener("click", async () => {
    const answer = await send({ action: "diagnose" }, false);
    if (answer) say(answer.message, answer.status !== "ok");
  });
  $("show-candidates").addEventListener("change", (e) => { settings.showCandidates = e.target.checked; saveSettings(); render(); });
  $("auto-fill").addEventListener("change", (e) => send({ action: "auto", on: e.target.checked }, true));
  $("pause").addEventListener("click", () => {
    if (!record) return;
    if (isPaused()) resume(); else act({ action: "pause" });
    render();
  });
  $("resume").addEventListener("click", resume);
  $("tools").addEventListener("click", () => toggleTools());
  document.addEventListener("pointerdown", (e) => {
    if ($("helpers").classList.contains("open") && !e.target.closest("#helpers, #tools")) toggleTools(false);
  });
  $("new-game").addEventListener("click", openNewDialog);
  $("daily").addEventListener("click", openDaily);
  $("open-own").addEventListener("click", menuDo(() => { $("own-error").textContent = ""; $("own-dialog").showModal(); }));
  $("my-games").addEventListener("click", menuDo(openGames));
  $("settings").addEventListener("click", menuDo(openSettings));
  $("share").addEventListener("click", menuDo(onShare));
  $("save-session").addEventListener("click", menuDo(() => download("session")));
  $("save-sdo").addEventListener("click", menuDo(() => download(record.shape.cages ? "puzzle" : "sdo")));
  $("print").addEventListener("click", menuDo(() => window.print()));
  $("keys").addEventListener("click", menuDo(() => $("keys-dialog").showModal()));
  $("keys-more").addEventListener("click", () => $("keys-dialog").showModal());
  $("new-shape").addEventListener("change", fillLevels);
  $("new-form").addEventListener("submit", (event) => {
    if (event.submitter?.value !== "start") return;
    event.preventDefault();  // the dialog stays open until the game has come
    startNew();
  });
  $("own-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) $("own-text").value = await file.text();
  });
  $("own-form").addEventListener("submit", (event) => {
    if (event.submitter?.value !== "start") return;
    event.preventDefault();
    startOwn();
  });
  $("settings-form").addEventListener("change", onSetting);
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", applyTheme);
  window.addEventListener("online", () => outbox?.wake());
  window.addEventListener("hashchange", () => { if (!location.hash.startsWith(`#game=${record?.id}`)) follow(); });
  window.addEventListener("pagehide", () => {
    // the page is closed or reloaded: the clock stops now (the request outlives the
    // page) and starts again when the game is opened
    if (!record || !state?.running || state.solved) return;
    store(`numberplace-away:${record.id}`, true);
    fetch(`/api/games/${encodeURIComponent(record.id)}/actions`, {
      method: "POST", keepalive: true, headers: { "content-type": "application/json" },
      body: JSON.stringify({ action: "pause" }) }).catch(() => null);
  });
  document.addEventListener("visibilitychange", () => {
    // a game left alone does not count the time away; a page being reloaded or closed
    // is hidden too, but is gone before the pause would come
    if (!document.hidden) return;
    setTimeout(() => { if (document.hidden && state && state.running) act({ action: "pause" }); }, 500);
  });
  setInterval(tick, 250);
}

function resume() {
  if (!record) return;
  act({ action: "resume" });
  render();
  cells[focus]?.focus({ preventScroll: true });
}

async function boot() {
  applyTheme();
  wire();
  setMode(mode);
  await follow();
  drainOthers(record?.id);
}

// Open what the address asks for: a shared puzzle, a game, else the game played last,
// else a new one.
async function follow() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get("p")) {
    const body = { puzzle: params.get("p") };
    for (const [key, field] of [["shape", "shape"], ["alphabet", "alphabet"], ["v", "entries"]]) {
      if (params.get(key)) body[field] = params.get(key);
    }
    if (await start("/api/games", body)) return;
  }
  const id = params.get("game") || load("numberplace-game", null);
  if (id && (await open(id))) return;
  await start("/api/games", { shape: "9x9", level: 1, mode: "book" });
}

if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => { navigator.serviceWorker.register("/sw.js").catch(() => { /* plays on without */ }); });
}

boot();
