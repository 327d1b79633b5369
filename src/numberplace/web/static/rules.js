// The game's rules as the page applies them at once, before the server confirms: the
// same moves, refusals and messages as the game layer (numberplace.game.Session), the
// candidates its record shows, and the conflicts. No drawing and no network here.

export const LAYERS = ["value", "corner", "centre", "colour", "source"];
const PLAYER = 0;

export function bit(v) { return 1 << (v - 1); }

export function valuesOf(mask) {
  const out = [];
  for (let v = 1; mask; v++, mask >>>= 1) if (mask & 1) out.push(v);
  return out;
}

// What the rules need of a shape, computed once: the houses and cages of every cell and
// its peers (cells that cannot hold its value).
export function geometry(shape) {
  const n = shape.cells.length;
  const housesOf = Array.from({ length: n }, () => []);
  const cagesOf = Array.from({ length: n }, () => []);
  const houses = shape.houses || [];
  const cages = shape.cages || [];
  houses.forEach((h, k) => h.cells.forEach((c) => housesOf[c].push(k)));
  cages.forEach((g, k) => g.cells.forEach((c) => cagesOf[c].push(k)));
  const peers = Array.from({ length: n }, () => new Set());
  const join = (cells) => cells.forEach((a) => cells.forEach((b) => { if (a !== b) peers[a].add(b); }));
  houses.forEach((h) => join(h.cells));
  cages.forEach((g) => { if (!g.repeats) join(g.cells); });
  return { shape, n, size: shape.size, houses, cages, housesOf, cagesOf, peers };
}

// The board's layers as the page keeps them, from the server's record of a game.
export function stateFrom(record) {
  const forced = new Map((record.forced || []).map((c) => [c, record.values[c]]));
  const entries = record.values.map((v, c) => (record.givens[c] || forced.has(c) ? 0 : v));
  const history = record.history || { undo: [], redo: [], undo_total: 0, redo_total: 0 };
  return {
    givens: record.givens,
    layers: {
      value: entries, source: [...record.sources], corner: [...record.corner],
      centre: [...record.centre], colour: [...record.colours],
    },
    forced,
    undo: history.undo.map(copyMove), redo: history.redo.map(copyMove),
    undoTotal: history.undo_total ?? history.undo.length,
    redoTotal: history.redo_total ?? history.redo.length,
    mode: record.mode, running: record.timer.running, solved: record.solved,
  };
}

function copyMove(m) { return { kind: m.kind, text: m.text, changes: m.changes.map((c) => [...c]) }; }

// Every cell's value: givens, the player's entries, and forced values where auto-fill put
// them (an entry typed since wins over a forced value).
export function values(state) {
  return state.givens.map((g, c) => g || state.layers.value[c] || state.forced.get(c) || 0);
}

export function cellName(shape, cell, notation) {
  const [r, c] = shape.cells[cell];
  return notation === "book" ? `(${c + 1},${r + 1})` : `r${r + 1}c${c + 1}`;
}

function cageName(shape, cage, notation) {
  const total = cage.sum === null || cage.sum === undefined ? "" : ` ${cage.sum}`;
  if (cage.clue) {
    const [r, c] = cage.clue;
    const square = notation === "book" ? `(${c + 1},${r + 1})` : `r${r + 1}c${c + 1}`;
    return `the ${cage.across ? "across" : "down"} run${total} of ${square}`;
  }
  return `the${total} cage at ${cellName(shape, cage.cells[0], notation)}`;
}

// The first house or cage where `value` already stands in a peer of one of `cells`
// (those cells themselves left out), as the game says it; "" when there is none.
export function clash(geo, vals, cells, value, notation, symbols) {
  const chosen = new Set(cells);
  for (const c of cells) {
    const groups = geo.housesOf[c].map((h) => [geo.houses[h].name, geo.houses[h].cells]);
    for (const g of geo.cagesOf[c]) {
      const cage = geo.cages[g];
      if (!cage.repeats) groups.push([cageName(geo.shape, cage, notation), cage.cells]);
    }
    for (let [name, members] of groups) {
      for (const p of members) {
        if (p !== c && !chosen.has(p) && vals[p] === value) {
          if (notation === "book") name = name.replace("box", "minigrid");
          return `${symbols[value - 1]} is already in ${name}, at ${cellName(geo.shape, p, notation)}`;
        }
      }
    }
  }
  return "";
}

function unique(cells) { return [...new Set(cells)]; }

function changesOf(layer, cells, before, after) {
  const out = [];
  cells.forEach((c, k) => { if (before[k] !== after[k]) out.push([layer, c, before[k], after[k]]); });
  return out;
}

function play(state, move) {
  for (const [layer, cell, , after] of move.changes) state.layers[layer][cell] = after;
  state.undo.push(move);
  state.undoTotal += 1;
  state.redo = [];
  state.redoTotal = 0;
  return { ok: true, message: move.text, moved: true };
}

// Carry out one action of the player on `state` (changed in place) as the server will.
// The answer: ok false with the refusal's words; `moved` when the board changed;
// `remote` when only the server can do it (a hint, a step, solving, checking).
export function apply(state, geo, body, notation, symbols) {
  const name = (c) => cellName(geo.shape, c, notation);
  const cells = unique(body.cells || []);
  const L = state.layers;
  switch (body.action) {
    case "enter": {
      const value = body.value;
      const chosen = cells.filter((c) => !state.givens[c]);
      if (!chosen.length) return { ok: false, message: "a given cannot change" };
      if (value && state.mode === "book") {
        const found = clash(geo, values(state), chosen, value, notation, symbols);
        if (found) return { ok: false, message: found };
      }
      const changes = changesOf("value", chosen, chosen.map((c) => L.value[c]), chosen.map(() => value))
        .concat(changesOf("source", chosen, chosen.map((c) => L.source[c]), chosen.map(() => PLAYER)));
      if (!changes.length) return { ok: true, message: "" };
      const where = chosen.map(name).join(", ");
      return play(state, { kind: value ? "enter" : "erase", changes,
        text: value ? `Value ${symbols[value - 1]} in ${where}` : `Erased ${where}` });
    }
    case "erase": {
      const chosen = cells.filter((c) => !state.givens[c]);
      const changes = [];
      for (const c of chosen) {
        const layers = L.value[c] ? ["value", "source"] : ["corner", "centre"];
        for (const layer of layers) if (L[layer][c]) changes.push([layer, c, L[layer][c], 0]);
      }
      if (!changes.length) return { ok: true, message: "" };
      return play(state, { kind: "erase", changes, text: "Erased " + chosen.map(name).join(", ") });
    }
    case "mark": {
      const layer = body.kind === "centre" ? "centre" : "corner";
      const vals = values(state);
      const chosen = cells.filter((c) => !vals[c]);
      const b = bit(body.value);
      const marks = L[layer];
      const adding = !chosen.every((c) => marks[c] & b);
      const changes = changesOf(layer, chosen, chosen.map((c) => marks[c]),
        chosen.map((c) => (adding ? marks[c] | b : marks[c] & ~b)));
      if (!changes.length) return { ok: true, message: "" };
      return play(state, { kind: layer, changes,
        text: `${adding ? "Marked" : "Unmarked"} ${symbols[body.value - 1]} (${layer}) in ${chosen.map(name).join(", ")}` });
    }
    case "paint": {
      let colour = body.value;
      const layer = L.colour;
      if (colour && cells.every((c) => layer[c] === colour)) colour = 0;
      const changes = changesOf("colour", cells, cells.map((c) => layer[c]), cells.map(() => colour));
      if (!changes.length) return { ok: true, message: "" };
      return play(state, { kind: "colour", changes, text: `Colour ${colour} on ${cells.map(name).join(", ")}` });
    }
    case "undo": case "redo": {
      const [from, to] = body.action === "undo" ? [state.undo, state.redo] : [state.redo, state.undo];
      const left = body.action === "undo" ? state.undoTotal : state.redoTotal;
      if (!left) return { ok: false, message: `nothing to ${body.action}` };
      if (!from.length) {
        // older than the moves the record carries: the server does it, the counts follow
        if (body.action === "undo") { state.undoTotal -= 1; state.redoTotal += 1; }
        else { state.redoTotal -= 1; state.undoTotal += 1; }
        return { remote: true };
      }
      const move = from.pop();
      if (body.action === "undo") {
        for (const [layer, cell, before] of [...move.changes].reverse()) L[layer][cell] = before;
        state.undoTotal -= 1; state.redoTotal += 1;
      } else {
        for (const [layer, cell, , after] of move.changes) L[layer][cell] = after;
        state.redoTotal -= 1; state.undoTotal += 1;
      }
      to.push(move);
      const word = body.action === "undo" ? "Undo" : "Redo";
      return { ok: true, message: `${word}: ${move.text}`, moved: true };
    }
    case "pause": state.running = false; return { ok: true, message: "" };
    case "resume": if (!state.solved) state.running = true; return { ok: true, message: "" };
    default: return { remote: true };
  }
}

// Cells whose value repeats one in a house or in a cage whose digits may not repeat.
export function conflicts(geo, vals) {
  const out = new Set();
  const groups = geo.houses.map((h) => h.cells).concat(geo.cages.filter((g) => !g.repeats).map((g) => g.cells));
  for (const cells of groups) {
    const seen = new Map();
    for (const c of cells) {
      const v = vals[c];
      if (!v) continue;
      if (seen.has(v)) { out.add(c); out.add(seen.get(v)); } else seen.set(v, c);
    }
  }
  return out;
}

// Full, no repeat, and every cage's sum met.
export function solved(geo, vals) {
  if (vals.some((v) => !v) || conflicts(geo, vals).size) return false;
  return geo.cages.every((g) => g.sum === null || g.sum === undefined
    || g.cells.reduce((s, c) => s + vals[c], 0) === g.sum);
}

// Each empty cell's possible values as a bit mask (0 for a cell with a value): the values
// no peer holds, then, for every cage with a sum, only those that some combination able
// to fill the cage's empty cells can give it. The server's record computes the same.
export function candidates(geo, vals) {
  const full = (1 << geo.size) - 1;
  const peer = vals.map((v, c) => {
    if (v) return 0;
    let mask = full;
    for (const p of geo.peers[c]) if (vals[p]) mask &= ~bit(vals[p]);
    return mask;
  });
  const out = [...peer];
  for (const cage of geo.cages) {
    if (cage.sum === null || cage.sum === undefined) continue;
    const free = cage.cells.filter((c) => !vals[c]);
    if (!free.length) continue;
    const placed = cage.cells.filter((c) => vals[c]).map((c) => vals[c]);
    const target = cage.sum - placed.reduce((s, v) => s + v, 0);
    const k = free.length;
    if (cage.repeats) {
      for (const x of free) {
        let allowed = 0;
        for (const v of valuesOf(peer[x])) {
          const rest = target - v;
          if (rest >= (k - 1) && rest <= (k - 1) * geo.size) allowed |= bit(v);
        }
        out[x] &= allowed;
      }
      continue;
    }
    let used = 0;
    for (const v of placed) used |= bit(v);
    const allowed = new Map(free.map((x) => [x, 0]));
    for (const combo of combinations(geo.size, k, target, used)) {
      if (!matches(free, combo, peer)) continue;
      let mask = 0;
      for (const v of combo) mask |= bit(v);
      for (const x of free) allowed.set(x, allowed.get(x) | (mask & peer[x]));
    }
    for (const x of free) out[x] &= allowed.get(x);
  }
  return out;
}

// The sets of k different values of 1..n, none in `used`, that add up to `target`.
function* combinations(n, k, target, used, low = 1) {
  if (k === 0) { if (target === 0) yield []; return; }
  for (let v = low; v <= n; v++) {
    // the smallest k values from v on already pass the target: no larger v can do
    if (v * k + (k * (k - 1)) / 2 > target) return;
    if (used & bit(v)) continue;
    for (const rest of combinations(n, k - 1, target - v, used, v + 1)) yield [v, ...rest];
  }
}

// Whether the cells can take the values one each, every cell a value it may hold.
function matches(cells, combo, peer) {
  const owner = new Map();  // value -> index of the cell it went to
  const place = (i, seen) => {
    for (const v of combo) {
      if (!(peer[cells[i]] & bit(v)) || seen.has(v)) continue;
      seen.add(v);
      if (!owner.has(v) || place(owner.get(v), seen)) { owner.set(v, i); return true; }
    }
    return false;
  };
  return cells.every((_, i) => place(i, new Set()));
}
