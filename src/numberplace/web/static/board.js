// Drawing a board of any shape: cells placed on the shape's canvas, thick borders where
// blocks meet, values, pencil marks, candidates and highlights. Shared by the game page
// and the live solver page; it knows nothing of the rules.

const SIDES = [[1, "t"], [2, "r"], [4, "b"], [8, "l"]];

export function values(mask) {
  const out = [];
  for (let v = 1; mask; v++, mask >>= 1) if (mask & 1) out.push(v);
  return out;
}

// The cell size that fits the board in the window (px).
export function cellSize(shape) {
  const wide = Math.min(window.innerWidth - 32, window.innerWidth > 900 ? window.innerWidth - 420 : 9999);
  const high = window.innerHeight - 140;
  const side = Math.min(wide, Math.max(high, 320));
  return Math.max(16, Math.min(56, Math.floor(side / Math.max(shape.rows, shape.cols))));
}

// Build the cells of `shape` inside `board` (a role=grid element): one role=row element
// per canvas row, laid out by CSS grid. Returns the cell elements, indexed as the cells.
// A Kakuro's clue squares are read-only grid cells of their own (its blocks are the
// board's dark background showing through); a Killer's cages are drawn over the cells.
export function buildBoard(board, shape) {
  board.replaceChildren();
  board.style.setProperty("--rows", shape.rows);
  board.style.setProperty("--cols", shape.cols);
  board.style.setProperty("--cell", cellSize(shape) + "px");
  board.classList.toggle("kakuro", shape.kind === "kakuro");
  board.classList.toggle("killer", shape.kind === "killer");
  const diagonal = new Set(shape.diagonal);
  const notes = cageNotes(shape);
  const byRow = new Map();
  const place = (r, c, make) => {
    if (!byRow.has(r)) byRow.set(r, []);
    byRow.get(r).push([c, make]);
  };
  const cells = new Array(shape.cells.length);
  shape.cells.forEach(([r, c], i) => place(r, c, () => {
    const cell = document.createElement("div");
    cell.className = "cell";
    cell.setAttribute("role", "gridcell");
    cell.tabIndex = -1;
    cell.dataset.cell = i;
    for (const [bit, name] of SIDES) if (shape.thick[i] & bit) cell.classList.add(name);
    if (diagonal.has(i)) cell.classList.add("diag");
    if (notes.labelled.has(i)) cell.classList.add("summed");
    if (notes.said[i]) cell.dataset.note = notes.said[i];
    cells[i] = cell;
    return cell;
  }));
  for (const [r, c, down, across] of shape.clues || []) place(r, c, () => clueSquare(down, across));
  [...byRow.keys()].sort((a, b) => a - b).forEach((r) => {
    const row = document.createElement("div");
    row.setAttribute("role", "row");
    row.style.display = "contents";
    byRow.get(r).sort((a, b) => a[0] - b[0]).forEach(([c, make]) => {
      const el = make();
      el.style.gridRow = r + 1;
      el.style.gridColumn = c + 1;
      row.append(el);
    });
    board.append(row);
  });
  if (shape.kind === "killer") board.append(cageOutlines(shape));
  return cells;
}

// A Kakuro clue square: dark, split by its diagonal, the down sum below it on the left,
// the across sum above it on the right. Hidden words before each sum tell a screen
// reader which is which, and keep the sums it reads the ones shown.
function clueSquare(down, across) {
  const square = document.createElement("div");
  square.className = "clue";
  square.setAttribute("role", "gridcell");
  square.setAttribute("aria-readonly", "true");
  square.append(span("sr", "Clue"));
  if (across !== null) square.append(span("sr", ", across "), span("across", String(across)));
  if (down !== null) square.append(span("sr", ", down "), span("down", String(down)));
  return square;
}

// Cages' sums as the cells' labels say them, and the cells that carry a Killer sum.
function cageNotes(shape) {
  const said = new Array(shape.cells.length).fill("");
  const labelled = new Set();
  if (!shape.cages) return { said, labelled };
  const kakuro = shape.kind === "kakuro";
  for (const cage of shape.cages) {
    const across = kakuro && cage.cells.length > 1 && shape.cells[cage.cells[0]][0] === shape.cells[cage.cells[1]][0];
    const repeats = cage.repeats ? ", digits may repeat" : "";
    const words = kakuro ? `${across ? "across" : "down"} sum ${cage.sum}` : `cage sum ${cage.sum}, ${cage.cells.length} cells${repeats}`;
    for (const c of cage.cells) said[c] = said[c] ? `${said[c]}, ${words}` : words;
    if (!kakuro && cage.sum !== null) labelled.add(firstCell(shape, cage));
  }
  return { said, labelled };
}

// The cage's top-left cell (the first in reading order), where its sum is written.
function firstCell(shape, cage) {
  return cage.cells.reduce((best, c) => {
    const [r, k] = shape.cells[c], [br, bk] = shape.cells[best];
    return r < br || (r === br && k < bk) ? c : best;
  });
}

const SVG = "http://www.w3.org/2000/svg";
const UNIT = 100;    // one cell in the outline's drawing units
const INSET = 9;     // how far inside the cells a cage's outline runs

function svg(name, attributes) {
  const el = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
  return el;
}

// Killer cages as dashed outlines a little inside their cells, the sum in the top-left
// corner of each cage, drawn over the board without taking its clicks. The outline
// is cut where a sum stands, so the sum reads on any cell colour.
function cageOutlines(shape) {
  const layer = svg("svg", {
    class: "cages", viewBox: `0 0 ${shape.cols * UNIT} ${shape.rows * UNIT}`, "aria-hidden": "true",
  });
  const owner = new Map();
  shape.cages.forEach((cage, k) => cage.cells.forEach((c) => {
    const [r, col] = shape.cells[c];
    owner.set(r * 10000 + col, k);
  }));
  const mask = svg("mask", { id: "cage-sums", maskUnits: "userSpaceOnUse" });
  mask.append(svg("rect", { x: 0, y: 0, width: shape.cols * UNIT, height: shape.rows * UNIT, fill: "white" }));
  const labels = [];
  let path = "";
  shape.cages.forEach((cage, k) => {
    const inside = (r, c) => owner.get(r * 10000 + c) === k;
    for (const c of cage.cells) path += cellOutline(shape.cells[c], inside);
    if (cage.sum === null) return;
    const [r, c] = shape.cells[firstCell(shape, cage)];
    const text = cage.repeats ? `${cage.sum}*` : String(cage.sum);
    const x = c * UNIT + 4, y = r * UNIT + 4;
    mask.append(svg("rect", { x, y, width: 15 * text.length + 8, height: 30, fill: "black" }));
    const label = svg("text", { x: x + 3, y: y + 24, class: "cage-sum" });
    label.textContent = text;
    labels.push(label);
  });
  const defs = svg("defs", {});
  defs.append(mask);
  layer.append(defs, svg("path", { d: path, class: "cage-line", mask: "url(#cage-sums)" }), ...labels);
  return layer;
}

// The inset segments of one cell's sides that are a cage's border. Each runs the width of
// the cell, shortened at a corner where the border turns outwards and lengthened where it
// turns inwards, so the segments of neighbouring cells join into one closed outline.
function cellOutline([r, c], inside) {
  let d = "";
  // each side: the step outwards across it, and the step along it (clockwise)
  const sides = [[[-1, 0], [0, 1]], [[0, 1], [1, 0]], [[1, 0], [0, -1]], [[0, -1], [-1, 0]]];
  const cx = c * UNIT + UNIT / 2, cy = r * UNIT + UNIT / 2;
  for (const [[or, oc], [ar, ac]] of sides) {
    if (inside(r + or, c + oc)) continue;
    const end = (sign) => {
      // how far past the cell's half width the segment runs at this end
      const along = [r + sign * ar, c + sign * ac];
      if (!inside(...along)) return -INSET;
      return inside(along[0] + or, along[1] + oc) ? INSET : 0;
    };
    const half = UNIT / 2;
    const ox = oc * (half - INSET), oy = or * (half - INSET);
    const from = half + end(-1), to = half + end(1);
    d += `M${cx + ox - ac * from} ${cy + oy - ar * from}L${cx + ox + ac * to} ${cy + oy + ar * to}`;
  }
  return d;
}

function span(className, text) {
  const s = document.createElement("span");
  if (className) s.className = className;
  s.textContent = text;
  return s;
}

// A small grid of candidates, each with its role class when the hint names one.
export function candidateGrid(symbols, size, mask, roles) {
  const grid = document.createElement("div");
  grid.className = "cands";
  grid.setAttribute("aria-hidden", "true");  // the cell's label says them
  const side = Math.ceil(Math.sqrt(size));
  grid.style.gridTemplateColumns = `repeat(${side}, 1fr)`;
  for (let v = 1; v <= size; v++) {
    const has = mask & (1 << (v - 1));
    // a space between candidates: the grid ignores it, text readers see separate symbols
    grid.append(span(has ? (roles?.get(v) || "") : "", has ? symbols[v - 1] : ""), " ");
  }
  return grid;
}

// Fill one cell: colour, value or marks, and the words a screen reader says.
export function fillCell(el, i, view, extra = {}) {
  const { shape, symbols } = view;
  const [r, c] = shape.cells[i];
  const value = view.values[i];
  const given = view.givens[i] !== 0;
  el.replaceChildren();
  const colour = view.colours ? view.colours[i] : 0;
  if (colour) el.append(Object.assign(span(`colour swatch col${colour}`, ""), {}));
  let said;
  if (value) {
    el.append(span("value", symbols[value - 1]));
    said = `${symbols[value - 1]}${given ? ", given" : ""}`;
  } else if (extra.candidates !== undefined && extra.candidates) {
    el.append(candidateGrid(symbols, shape.size, extra.candidates, extra.roles));
    said = `empty, candidates ${values(extra.candidates).map((v) => symbols[v - 1]).join(" ")}`;
  } else {
    const corner = view.corner ? values(view.corner[i]) : [];
    const centre = view.centre ? values(view.centre[i]) : [];
    if (corner.length) {
      const box = document.createElement("div");
      box.className = "corner";
      box.setAttribute("aria-hidden", "true");
      corner.forEach((v) => box.append(span("", symbols[v - 1]), " "));
      el.append(box);
    }
    if (centre.length) {
      const marks = span("centre", centre.map((v) => symbols[v - 1]).join("\u2009"));
      marks.setAttribute("aria-hidden", "true");
      el.append(marks);
    }
    said = "empty" + (corner.length ? `, corner ${corner.map((v) => symbols[v - 1]).join(" ")}` : "")
      + (centre.length ? `, centre ${centre.map((v) => symbols[v - 1]).join(" ")}` : "");
  }
  el.classList.toggle("given", given);
  const source = view.sources ? view.sources[i] : 0;
  el.classList.toggle("by-step", !given && source === 1);
  el.classList.toggle("by-solve", !given && source === 2);
  const note = el.dataset.note ? `, ${el.dataset.note}` : "";
  el.setAttribute("aria-label", `Row ${r + 1}, column ${c + 1}: ${said}${colour ? `, colour ${colour}` : ""}${note}`);
}
