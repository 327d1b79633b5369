// The game page: a board you play with keyboard, mouse or touch, over the server's game.
// Every rule and every answer comes from the server; this page draws and sends actions.

import { buildBoard, cellSize, fillCell } from "./board.js";

const $ = (id) => document.getElementById(id);
const MODES = { z: "normal", x: "corner", c: "centre", v: "colour" };

let game = null;          // the server's record of the game
let cells = [];           // the cell elements
let shapeKey = "";        // the shape the cells were built for
let selection = new Set();
let focus = 0;            // the cell with the keyboard focus
let mode = "normal";
let armed = null;         // digit-first input: the value clicks write
let hint = null;          // the last hint, and the position it was for
let hintFor = "";
let mistakes = new Set();
let showCandidates = false;
let clock = { base: 0, at: 0, running: false };

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const answer = await fetch(path, options);
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Error(data.error || `the server answered ${answer.status}`);
  return data;
}

function say(text) { $("message").textContent = text; }

async function guarded(work) {
  try { return await work(); } catch (error) { say(error.message); return null; }
}

// -- games -------------------------------------------------------------------------------

async function start(body) {
  say("Making the puzzle...");
  const made = await guarded(() => api("/api/games", body));
  if (!made) return;
  show(made);
  say("");
}

function show(record) {
  game = record;
  history.replaceState(null, "", "#game=" + game.id);
  localStorage.setItem("numberplace-game", game.id);
  const key = JSON.stringify(game.shape);
  if (key !== shapeKey) {
    cells = buildBoard($("board"), game.shape);
    shapeKey = key;
    selection = new Set();
    focus = game.givens.findIndex((v) => v === 0);
    if (focus < 0) focus = 0;
    buildPad();
  }
  clock = { base: game.timer.elapsed, at: performance.now(), running: game.timer.running };
  mistakes = new Set();
  render();
}

// Actions go to the server one after another, so their answers come back in order.
let queue = Promise.resolve();

function act(body) {
  const run = queue.then(() => send(body));
  queue = run.catch(() => null);
  return run;
}

async function send(body) {
  const answer = await guarded(() => api(`/api/games/${game.id}/actions`, body));
  if (!answer) return null;
  if (answer.game) {
    const before = game.values.join(",");
    game = answer.game;
    clock = { base: game.timer.elapsed, at: performance.now(), running: game.timer.running };
    if (game.values.join(",") !== before) { mistakes = new Set(); }
  }
  if (answer.ok === false) say(answer.message);
  else if (game.solved) say(`Solved in ${timeText(game.timer.elapsed)}!`);
  else if (body.action !== "hint") say("");
  render();
  return answer;
}

// -- drawing -----------------------------------------------------------------------------

function render() {
  if (!game) return;
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
  const conflicts = new Set(game.conflicts);
  const focusValue = game.values[focus];
  cells.forEach((el, i) => {
    const extra = {};
    if ((showCandidates || roles.has(i)) && !game.values[i]) {
      extra.candidates = game.candidates[i];
      extra.roles = roles.get(i);
    }
    fillCell(el, i, game, extra);
    el.classList.toggle("selected", selection.has(i));
    el.classList.toggle("same", !selection.has(i) && focusValue !== 0 && game.values[i] === focusValue);
    el.classList.toggle("house", houses.has(i));
    el.classList.toggle("hinted", hinted.has(i));
    el.classList.toggle("conflict", conflicts.has(i));
    el.classList.toggle("mistake", mistakes.has(i));
    el.setAttribute("aria-selected", selection.has(i) ? "true" : "false");
    el.tabIndex = i === focus ? 0 : -1;
  });
  renderPad();
  $("undo").disabled = !game.can_undo;
  $("redo").disabled = !game.can_redo;
  $("auto-fill").checked = game.auto_fill;
  $("pause").textContent = game.timer.running || game.solved ? "Pause" : "Resume";
  $("shape-name").textContent = game.shape.name + (game.mode === "free" ? ", free rules" : "");
  $("save-sdo").textContent = game.shape.cages ? "Save puzzle" : "Save .sdo";
  const log = $("log");
  log.replaceChildren(...game.log.map((line) => Object.assign(document.createElement("li"),
    { textContent: line })));
  log.scrollTop = log.scrollHeight;
  tick();
}

function position() { return game ? game.values.join(",") : ""; }

function buildPad() {
  const pad = $("pad");
  pad.replaceChildren();
  for (let v = 1; v <= game.shape.size; v++) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.value = v;
    button.addEventListener("click", () => padPress(v));
    pad.append(button);
  }
}

function renderPad() {
  const counts = new Array(game.shape.size + 1).fill(0);
  game.values.forEach((v) => { counts[v] += 1; });
  const copies = game.values.length / game.shape.size;
  // a Kakuro's runs hold each digit at most once, not each exactly once: nothing to count
  const counted = game.shape.kind !== "kakuro";
  $("pad").querySelectorAll("button").forEach((button) => {
    const v = Number(button.dataset.value);
    const symbol = game.symbols[v - 1];
    const left = copies - counts[v];
    if (mode === "colour") {
      button.replaceChildren(Object.assign(document.createElement("span"), { textContent: v <= 9 ? String(v) : "" }));
      button.className = v <= 9 ? `swatch col${v}` : "";
      button.disabled = v > 9;
      button.removeAttribute("aria-label");
      button.title = `Colour ${v}`;
    } else {
      const count = Object.assign(document.createElement("span"), { className: "left", textContent: String(left) });
      count.setAttribute("aria-hidden", "true");
      button.replaceChildren(symbol, ...(counted ? [count] : []));
      button.className = (counted && left <= 0 ? "done" : "") + (armed === v ? " armed" : "");
      button.disabled = false;
      button.removeAttribute("aria-label");
      if (counted) button.title = `${left} left to place`;
      else button.removeAttribute("title");
    }
    button.setAttribute("aria-pressed", armed === v ? "true" : "false");
  });
}

function timeText(seconds) {
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return h ? `${h}:${String(m).padStart(2, "0")}:${String(r).padStart(2, "0")}` : `${m}:${String(r).padStart(2, "0")}`;
}

function tick() {
  const seconds = clock.base + (clock.running ? (performance.now() - clock.at) / 1000 : 0);
  $("timer").textContent = timeText(seconds);
}

// -- input -------------------------------------------------------------------------------

function chosen() { return selection.size ? [...selection] : [focus]; }

async function write(value, where = chosen()) {
  if (mode === "normal") return act({ action: "enter", cells: where, value });
  if (mode === "colour") return act({ action: "paint", cells: where, value });
  return act({ action: "mark", cells: where, value, kind: mode });
}

async function erase(where = chosen()) {
  if (mode === "colour") return act({ action: "paint", cells: where, value: 0 });
  return act({ action: "erase", cells: where });
}

function padPress(v) {
  if (selection.size === 0 || armed !== null) {  // digit first: arm the digit, then click cells
    armed = armed === v ? null : v;
    say(armed === null ? "" : `Click cells to write ${mode === "colour" ? "colour " + v : game.symbols[v - 1]}.`);
    renderPad();
    return;
  }
  write(v);
}

function setMode(next) {
  mode = next;
  document.querySelectorAll("#modes [data-mode]").forEach((b) =>
    b.setAttribute("aria-checked", b.dataset.mode === mode ? "true" : "false"));
  renderPad();
}

function select(i, add) {
  if (!add) selection = new Set();
  selection.add(i);
  focus = i;
  render();
  cells[i].focus();
}

function neighbour(i, dr, dc) {
  const [r, c] = game.shape.cells[i];
  const at = new Map(game.shape.cells.map(([rr, cc], k) => [rr * 1000 + cc, k]));
  for (let step = 1; step < Math.max(game.shape.rows, game.shape.cols); step++) {
    const k = at.get((r + dr * step) * 1000 + (c + dc * step));
    if (k !== undefined) return k;
    if (r + dr * step < 0 || c + dc * step < 0 || r + dr * step >= game.shape.rows || c + dc * step >= game.shape.cols) break;
  }
  return i;
}

function onKey(event) {
  if (!game || document.querySelector("dialog[open]")) return;
  if (event.target.closest && event.target.closest("input, textarea, select")) return;
  const key = event.key;
  const ctrl = event.ctrlKey || event.metaKey;
  if (ctrl && key.toLowerCase() === "z") { event.preventDefault(); act({ action: event.shiftKey ? "redo" : "undo" }); return; }
  if (ctrl && key.toLowerCase() === "y") { event.preventDefault(); act({ action: "redo" }); return; }
  if (ctrl) return;
  const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (arrows[key]) {
    event.preventDefault();
    select(neighbour(focus, ...arrows[key]), event.shiftKey);
    return;
  }
  if (key === "Backspace" || key === "Delete") { event.preventDefault(); erase(); return; }
  if (key === "Escape") { selection = new Set(); armed = null; render(); return; }
  const symbols = game.symbols.toUpperCase();
  const upper = key.length === 1 ? key.toUpperCase() : "";
  let v = upper ? symbols.indexOf(upper) + 1 : 0;
  if (mode === "colour" && /^[0-9]$/.test(key)) v = Number(key);
  if (v > 0) { event.preventDefault(); write(v); return; }
  if (MODES[key.toLowerCase()]) { event.preventDefault(); setMode(MODES[key.toLowerCase()]); }
}

let dragging = false;

function onPointerDown(event) {
  const el = event.target.closest(".cell");
  if (!el) return;
  event.preventDefault();
  const i = Number(el.dataset.cell);
  if (armed !== null) {
    focus = i;
    write(armed, [i]);
    return;
  }
  dragging = true;
  select(i, event.shiftKey || event.ctrlKey || event.metaKey);
}

function onPointerMove(event) {
  if (!dragging) return;
  const target = document.elementFromPoint(event.clientX, event.clientY);
  const el = target && target.closest(".cell");
  if (el && !selection.has(Number(el.dataset.cell))) {
    selection.add(Number(el.dataset.cell));
    render();
  }
}

// -- buttons -----------------------------------------------------------------------------

async function onHint() {
  const here = position();
  const tier = hint && hintFor === here ? Math.min(3, hint.tier + 1) : 1;
  const answer = await act({ action: "hint", tier });
  if (!answer) return;
  hint = answer.hint;
  hintFor = here;
  say(`Hint ${hint.tier}/3: ${hint.text}`);
  render();
}

async function onShare() {
  const progress = game.values.map((v, i) => (game.givens[i] || !v ? "." : game.symbols[v - 1])).join("");
  const params = new URLSearchParams({ p: game.share.text });
  if (game.share.shape) params.set("shape", game.share.shape);
  if (game.share.alphabet) params.set("alphabet", game.share.alphabet);
  if (progress.replace(/\./g, "")) params.set("v", progress);
  const link = `${location.origin}/#${params.toString()}`;
  try { await navigator.clipboard.writeText(link); say("The link is copied: " + link); }
  catch { say("Share this link: " + link); }
}

function download(kind) {
  const a = document.createElement("a");
  a.href = `/api/games/${game.id}/file?as=${kind}`;
  a.download = "";
  document.body.append(a);
  a.click();
  a.remove();
}

function applyTheme(dark) {
  document.documentElement.classList.toggle("dark", dark);
  $("theme").setAttribute("aria-pressed", dark ? "true" : "false");
  localStorage.setItem("numberplace-theme", dark ? "dark" : "light");
}

let offered = null;  // the shapes and levels the server makes

async function fillNewDialog() {
  offered = await guarded(() => api("/api/shapes"));
  if (!offered) return;
  $("new-shape").replaceChildren(...offered.shapes.map((s) => new Option(s, s, false, s === "9x9")));
  fillLevels();
}

// A Kakuro or Killer is made at fewer levels than a Sudoku: offer the shape's own.
function fillLevels() {
  if (!offered) return;
  const before = $("new-level").value;
  const levels = (offered.sum_levels || {})[$("new-shape").value] || offered.levels;
  $("new-level").replaceChildren(...levels.map((name, k) => new Option(`${k + 1} ${name}`, String(k + 1))));
  if (Number(before) <= levels.length) $("new-level").value = before;
}

function wire() {
  $("board").addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", () => { dragging = false; });
  document.addEventListener("keydown", onKey);
  document.querySelectorAll("#modes [data-mode]").forEach((b) => b.addEventListener("click", () => setMode(b.dataset.mode)));
  $("erase").addEventListener("click", () => erase());
  $("undo").addEventListener("click", () => act({ action: "undo" }));
  $("redo").addEventListener("click", () => act({ action: "redo" }));
  $("hint").addEventListener("click", onHint);
  $("step").addEventListener("click", async () => {
    const answer = await act({ action: "step" });
    if (answer && answer.ok) say(game.log[game.log.length - 1]);
  });
  $("solve").addEventListener("click", () => act({ action: "solve" }));
  $("check").addEventListener("click", async () => {
    const answer = await act({ action: "check" });
    if (!answer) return;
    mistakes = new Set(answer.mistakes);
    say(mistakes.size ? `${mistakes.size} mistake${mistakes.size > 1 ? "s" : ""}, marked in red.` : "No mistakes so far.");
    render();
  });
  $("diagnose").addEventListener("click", async () => {
    const answer = await act({ action: "diagnose" });
    if (answer) say(answer.message);
  });
  $("show-candidates").addEventListener("change", (e) => { showCandidates = e.target.checked; render(); });
  $("auto-fill").addEventListener("change", (e) => act({ action: "auto", on: e.target.checked }));
  $("pause").addEventListener("click", () => act({ action: game.timer.running ? "pause" : "resume" }));
  $("hide-timer").addEventListener("click", (e) => {
    const hidden = $("timer").classList.toggle("hidden");
    e.target.setAttribute("aria-pressed", hidden ? "true" : "false");
    e.target.textContent = hidden ? "Show timer" : "Hide timer";
  });
  $("share").addEventListener("click", onShare);
  $("save-session").addEventListener("click", () => download("session"));
  $("save-sdo").addEventListener("click", () => download(game.shape.cages ? "puzzle" : "sdo"));
  $("print").addEventListener("click", () => window.print());
  $("theme").addEventListener("click", () => applyTheme(!document.documentElement.classList.contains("dark")));
  $("new-shape").addEventListener("change", fillLevels);
  $("new-game").addEventListener("click", async () => { await fillNewDialog(); $("new-dialog").showModal(); });
  $("new-form").addEventListener("submit", (event) => {
    if (event.submitter && event.submitter.value === "start") {
      start({ shape: $("new-shape").value, level: Number($("new-level").value), mode: $("new-mode").value });
    }
  });
  $("open-own").addEventListener("click", () => $("own-dialog").showModal());
  $("own-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) $("own-text").value = await file.text();
  });
  $("own-form").addEventListener("submit", (event) => {
    if (event.submitter && event.submitter.value === "start") {
      const body = { puzzle: $("own-text").value };
      if ($("own-shape").value.trim()) body.shape = $("own-shape").value.trim();
      start(body);
    }
  });
  window.addEventListener("resize", () => {
    if (game) $("board").style.setProperty("--cell", cellSize(game.shape) + "px");
  });
  setInterval(tick, 500);
}

async function boot() {
  const saved = localStorage.getItem("numberplace-theme");
  applyTheme(saved ? saved === "dark" : window.matchMedia("(prefers-color-scheme: dark)").matches);
  wire();
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get("p")) {
    const body = { puzzle: params.get("p") };
    if (params.get("shape")) body.shape = params.get("shape");
    if (params.get("alphabet")) body.alphabet = params.get("alphabet");
    if (params.get("v")) body.entries = params.get("v");
    await start(body);
    return;
  }
  const id = params.get("game") || localStorage.getItem("numberplace-game");
  if (id) {
    const found = await api(`/api/games/${encodeURIComponent(id)}`).catch(() => null);
    if (found) { show(found); return; }
  }
  await start({ shape: "9x9", level: 1 });
}

boot();
