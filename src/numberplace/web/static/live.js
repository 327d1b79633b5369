// The live solver page: givens typed here, the server's candidates and forced values drawn
// after every keystroke.

import { buildBoard, fillCell } from "./board.js";

const $ = (id) => document.getElementById(id);
let shape = null;
let symbols = "";
let givens = [];
let cells = [];
let focus = 0;
let asked = 0;   // answers to older keystrokes are dropped

async function view(puzzleText, shapeName) {
  const answer = await fetch("/api/live", {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ puzzle: puzzleText, shape: shapeName }) });
  const data = await answer.json();
  if (!answer.ok) throw new Error(data.error);
  return data;
}

function line() { return givens.map((v) => (v ? symbols[v - 1] : ".")).join(""); }

async function refresh() {
  const ticket = ++asked;
  let data;
  try { data = await view(line(), $("live-shape").value); }
  catch (error) { $("verdict").textContent = error.message; return; }
  if (ticket !== asked) return;
  if (!shape || JSON.stringify(shape) !== JSON.stringify(data.shape)) {
    shape = data.shape;
    symbols = data.symbols;
    if (givens.length !== shape.cells.length) givens = new Array(shape.cells.length).fill(0);
    cells = buildBoard($("board"), shape);
  }
  const forced = new Set(data.forced.map(([c]) => c));
  const roles = new Map();
  for (const [c, v, direction] of data.directions) {
    if (!roles.has(c)) roles.set(c, new Map());
    roles.get(c).set(v, direction);
  }
  const shown = { shape, symbols, givens: data.givens, values: data.values };
  cells.forEach((el, i) => {
    const extra = data.values[i] ? {} : { candidates: data.candidates[i] | removedMask(roles.get(i)), roles: roles.get(i) };
    fillCell(el, i, shown, extra);
    el.classList.toggle("forced", forced.has(i));
    el.classList.toggle("selected", i === focus);
    el.tabIndex = i === focus ? 0 : -1;
  });
  $("verdict").textContent = `The puzzle so far: ${data.verdict}.`;
  $("steps").replaceChildren(...data.steps.map((s) => Object.assign(document.createElement("li"), { textContent: s })));
}

// removed candidates stay visible, coloured by the direction that removed them
function removedMask(roles) {
  let mask = 0;
  if (roles) for (const v of roles.keys()) mask |= 1 << (v - 1);
  return mask;
}

function move(dr, dc) {
  const [r, c] = shape.cells[focus];
  const k = shape.cells.findIndex(([rr, cc]) => rr === r + dr && cc === c + dc);
  if (k >= 0) focus = k;
}

function onKey(event) {
  if (!shape || event.target.closest("select")) return;
  const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (arrows[event.key]) {
    event.preventDefault();
    move(...arrows[event.key]);
  } else if (event.key === "Backspace" || event.key === "Delete") {
    event.preventDefault();
    givens[focus] = 0;
  } else if (event.key === "." || event.key === "0" || event.key === " ") {
    event.preventDefault();  // an empty cell, typed as in a puzzle line: on to the next
    givens[focus] = 0;
    focus = Math.min(focus + 1, givens.length - 1);
  } else if (event.key.length === 1 && symbols.toUpperCase().includes(event.key.toUpperCase())) {
    event.preventDefault();
    givens[focus] = symbols.toUpperCase().indexOf(event.key.toUpperCase()) + 1;
    focus = Math.min(focus + 1, givens.length - 1);
  } else {
    return;
  }
  refresh().then(() => cells[focus].focus());
}

function boot() {
  // the theme is the game page's setting, kept in the same place
  const stored = () => { try { return JSON.parse(localStorage.getItem("numberplace-settings") || "{}"); } catch { return {}; } };
  const show = () => $("theme").setAttribute("aria-pressed", document.documentElement.classList.contains("dark") ? "true" : "false");
  show();
  $("theme").addEventListener("click", () => {
    const now = !document.documentElement.classList.contains("dark");
    document.documentElement.classList.toggle("dark", now);
    try { localStorage.setItem("numberplace-settings", JSON.stringify({ ...stored(), theme: now ? "dark" : "light" })); }
    catch { /* not kept */ }
    show();
  });
  $("board").addEventListener("pointerdown", (event) => {
    const el = event.target.closest(".cell");
    if (!el) return;
    focus = Number(el.dataset.cell);
    refresh().then(() => cells[focus].focus());
  });
  $("live-shape").addEventListener("change", () => { shape = null; givens = []; focus = 0; startEmpty(); });
  $("live-clear").addEventListener("click", () => { givens = givens.map(() => 0); refresh(); });
  document.addEventListener("keydown", onKey);
  startEmpty();
}

async function startEmpty() {
  const sizes = { "4x4": 16, "6x6": 36, "9x9": 81, diagonal: 81, "12x12": 144, "16x16": 256, samurai: 369 };
  givens = new Array(sizes[$("live-shape").value]).fill(0);
  symbols = ".".repeat(givens.length); // replaced by the server's symbols at once
  await refresh();
}

boot();
