// Drawing a board of any shape: the cells on the shape's canvas (a CSS grid sized by the
// style sheet alone, so nothing moves when the page fills it), the grid's lines and a
// Killer's cages in SVG over them, values, pencil marks, candidates and highlights.
// Shared by the game page and the live solver page; it knows nothing of the rules.

const SVG = "http://www.w3.org/2000/svg";
const UNIT = 100;    // one cell in the overlays' drawing units
const INSET = 8;     // how far inside its cells a cage's outline runs
// where the k-th corner mark sits, SudokuPad's order: the four corners, then the middles
const CORNER_SPOTS = [[0, 0], [0, 2], [2, 0], [2, 2], [0, 1], [2, 1], [1, 0], [1, 2], [1, 1]];

export function values(mask) {
  const out = [];
  for (let v = 1; mask; v++, mask >>>= 1) if (mask & 1) out.push(v);
  return out;
}

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function svg(name, attributes = {}) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
  return e;
}

// Build the cells of `shape` inside `board` (a role=grid element inside a .board-wrap):
// one role=row element per canvas row. Returns the cell elements, indexed as the cells.
// A Kakuro's clue squares and blocks are squares of their own; the grid lines and a
// Killer's cages are drawn in SVG layers over the cells, taking none of their clicks.
export function buildBoard(board, shape) {
  const wrap = board.parentElement;
  board.replaceChildren();
  wrap.querySelectorAll(":scope > svg").forEach((layer) => layer.remove());
  wrap.style.setProperty("--rows", shape.rows);
  wrap.style.setProperty("--cols", shape.cols);
  wrap.style.setProperty("--side", Math.ceil(Math.sqrt(shape.size)));
  wrap.dataset.kind = shape.kind || "sudoku";
  const notes = cageNotes(shape);
  const byRow = new Map();
  const place = (r, c, make) => {
    if (!byRow.has(r)) byRow.set(r, []);
    byRow.get(r).push([c, make]);
  };
  const cells = new Array(shape.cells.length);
  shape.cells.forEach(([r, c], i) => place(r, c, () => {
    const cell = el("div", "cell");
    cell.setAttribute("role", "gridcell");
    cell.tabIndex = -1;
    cell.dataset.cell = i;
    if (notes.labelled.has(i)) cell.classList.add("summed");
    if (notes.said[i]) cell.dataset.note = notes.said[i];
    cells[i] = cell;
    return cell;
  }));
  for (const [r, c, down, across] of shape.clues || []) place(r, c, () => clueSquare(down, across));
  for (const [r, c] of shape.blocks || []) place(r, c, () => el("div", "block"));
  [...byRow.keys()].sort((a, b) => a - b).forEach((r) => {
    const row = el("div", "row");
    row.setAttribute("role", "row");
    byRow.get(r).sort((a, b) => a[0] - b[0]).forEach(([c, make]) => {
      const square = make();
      square.style.gridRow = r + 1;
      square.style.gridColumn = c + 1;
      row.append(square);
    });
    board.append(row);
  });
  wrap.append(gridLines(shape));
  if (shape.kind === "killer") wrap.append(cageOutlines(shape));
  return cells;
}

// A Kakuro clue square: dark, split by its diagonal, the down sum below it on the left,
// the across sum above it on the right. Hidden words before each sum tell a screen
// reader which is which.
function clueSquare(down, across) {
  const square = el("div", "clue");
  square.setAttribute("role", "gridcell");
  square.setAttribute("aria-readonly", "true");
  square.append(el("span", "sr", "Clue"));
  if (across !== null) square.append(el("span", "sr", ", across "), el("span", "across", String(across)));
  if (down !== null) square.append(el("span", "sr", ", down "), el("span", "down", String(down)));
  return square;
}

// Cages' sums as the cells' labels say them, and the cells that carry a Killer sum.
function cageNotes(shape) {
  const said = new Array(shape.cells.length).fill("");
  const labelled = new Set();
  if (!shape.cages) return { said, labelled };
  const kakuro = shape.kind === "kakuro";
  for (const cage of shape.cages) {
    const across = cage.across ?? (kakuro && cage.cells.length > 1
      && shape.cells[cage.cells[0]][0] === shape.cells[cage.cells[1]][0]);
    const repeats = cage.repeats ? ", digits may repeat" : "";
    const words = kakuro ? `${across ? "across" : "down"} sum ${cage.sum}` : `cage sum ${cage.sum}, ${cage.cells.length} cells${repeats}`;
    for (const c of cage.cells) said[c] = said[c] ? `${said[c]}, ${words}` : words;
    if (!kakuro && cage.sum !== null) labelled.add(firstCell(shape, cage));
  }
  return { said, labelled };
}

// The cage's top-left cell (the first in reading order), where its sum is written.
export function firstCell(shape, cage) {
  return cage.cells.reduce((best, c) => {
    const [r, k] = shape.cells[c], [br, bk] = shape.cells[best];
    return r < br || (r === br && k < bk) ? c : best;
  });
}

// The grid's lines: thin between cells of one block, thick where blocks (or the grid)
// end; the diagonals of an X Sudoku. Every edge is drawn once, thick over thin.
function gridLines(shape) {
  const layer = svg("svg", { class: "lines", viewBox: `0 0 ${shape.cols * UNIT} ${shape.rows * UNIT}`,
    "aria-hidden": "true", preserveAspectRatio: "none" });
  const at = new Map(shape.cells.map(([r, c], i) => [r * 10000 + c, i]));
  const sudoku = shape.kind !== "kakuro";
  let thin = "", thick = "";
  shape.cells.forEach(([r, c], i) => {
    // each cell draws its top and left edges, and its bottom and right ones where no
    // cell lies beyond (that cell would draw them)
    const sides = [[-1, 0, 1, `M${c * UNIT} ${r * UNIT}h${UNIT}`], [0, -1, 8, `M${c * UNIT} ${r * UNIT}v${UNIT}`],
      [1, 0, 4, `M${c * UNIT} ${(r + 1) * UNIT}h${UNIT}`], [0, 1, 2, `M${(c + 1) * UNIT} ${r * UNIT}v${UNIT}`]];
    for (const [dr, dc, side, d] of sides) {
      const other = at.get((r + dr) * 10000 + c + dc);
      if ((dr > 0 || dc > 0) && other !== undefined) continue;
      const heavy = other === undefined ? sudoku : (shape.thick[i] & side) !== 0;
      if (heavy) thick += d; else thin += d;
    }
  });
  layer.append(svg("path", { d: thin, class: "thin" }), svg("path", { d: thick, class: "thick" }));
  for (const house of shape.houses || []) {
    if (!/diagonal/.test(house.name)) continue;
    const ends = house.cells.map((i) => shape.cells[i]).sort((a, b) => a[0] - b[0]);
    const [[r0, c0], [r1, c1]] = [ends[0], ends[ends.length - 1]];
    const right = c1 > c0;
    layer.append(svg("line", { class: "diagonal", x1: (right ? c0 : c0 + 1) * UNIT, y1: r0 * UNIT,
      x2: (right ? c1 + 1 : c1) * UNIT, y2: (r1 + 1) * UNIT }));
  }
  return layer;
}

// Killer cages: one closed dashed path a little inside each cage's border, its sum in the
// cage's top-left corner, where the line is cut so the sum reads on any cell colour.
function cageOutlines(shape) {
  const width = shape.cols * UNIT, height = shape.rows * UNIT;
  const layer = svg("svg", { class: "cages", viewBox: `0 0 ${width} ${height}`, "aria-hidden": "true",
    preserveAspectRatio: "none" });
  const maskId = `cage-sums-${Math.random().toString(36).slice(2)}`;
  const mask = svg("mask", { id: maskId, maskUnits: "userSpaceOnUse", x: 0, y: 0, width, height });
  mask.append(svg("rect", { x: 0, y: 0, width, height, fill: "white" }));
  const labels = [];
  let d = "";
  shape.cages.forEach((cage) => {
    const inside = new Set(cage.cells.map((c) => { const [r, k] = shape.cells[c]; return r * 10000 + k; }));
    for (const loop of outlineLoops(inside)) d += insetPath(loop);
    if (cage.sum === null) return;
    const [r, c] = shape.cells[firstCell(shape, cage)];
    const text = cage.repeats ? `${cage.sum}*` : String(cage.sum);
    const x = c * UNIT + 3, y = r * UNIT + 3;
    mask.append(svg("rect", { x, y, width: 14 * text.length + 7, height: 26, fill: "black" }));
    const label = svg("text", { x: x + 3, y: y + 21, class: "cage-sum" });
    label.textContent = text;
    labels.push(label);
  });
  const defs = svg("defs");
  defs.append(mask);
  layer.append(defs, svg("path", { d, class: "cage-line", mask: `url(#${maskId})` }), ...labels);
  return layer;
}

// The closed loops of corners (in cell units) around a set of cells (keys r*10000+c), each
// walked clockwise with the cells on its right. Where two of its cells touch only at a
// corner the walk turns right, so each loop stays simple.
export function outlineLoops(inside) {
  const has = (r, c) => inside.has(r * 10000 + c);
  const edges = new Map();  // start corner -> directed edges leaving it
  const add = (x0, y0, x1, y1) => {
    const key = `${x0},${y0}`;
    if (!edges.has(key)) edges.set(key, []);
    edges.get(key).push([x0, y0, x1, y1]);
  };
  for (const key of inside) {
    const r = Math.floor(key / 10000), c = key % 10000;
    if (!has(r - 1, c)) add(c, r, c + 1, r);
    if (!has(r, c + 1)) add(c + 1, r, c + 1, r + 1);
    if (!has(r + 1, c)) add(c + 1, r + 1, c, r + 1);
    if (!has(r, c - 1)) add(c, r + 1, c, r);
  }
  const loops = [];
  const used = new Set();
  for (const list of edges.values()) {
    for (const first of list) {
      if (used.has(first)) continue;
      const loop = [];
      let edge = first;
      while (!used.has(edge)) {
        used.add(edge);
        loop.push([edge[0], edge[1]]);
        const dx = edge[2] - edge[0], dy = edge[3] - edge[1];
        const next = (edges.get(`${edge[2]},${edge[3]}`) || []).filter((e) => !used.has(e) || e === first);
        // right turn first: in screen coordinates (y down) the right of (dx, dy) is (-dy, dx)
        next.sort((a, b) => turn(dx, dy, a) - turn(dx, dy, b));
        if (!next.length) break;
        edge = next[0];
      }
      loops.push(loop);
    }
  }
  return loops;
}

function turn(dx, dy, edge) {
  const ex = edge[2] - edge[0], ey = edge[3] - edge[1];
  if (ex === -dy && ey === dx) return 0;   // right
  if (ex === dx && ey === dy) return 1;    // straight on
  return 2;                                // left
}

// A loop's path moved INSET inside: each corner goes in along both of its sides' inward
// normals, so the path keeps the same distance from every side.
function insetPath(loop) {
  const corners = loop.filter((p, i) => {
    const a = loop[(i + loop.length - 1) % loop.length], b = loop[(i + 1) % loop.length];
    return (p[0] - a[0]) * (b[1] - p[1]) - (p[1] - a[1]) * (b[0] - p[0]) !== 0;  // not straight on
  });
  const points = corners.map((p, i) => {
    const a = corners[(i + corners.length - 1) % corners.length], b = corners[(i + 1) % corners.length];
    const din = [Math.sign(p[0] - a[0]), Math.sign(p[1] - a[1])];
    const dout = [Math.sign(b[0] - p[0]), Math.sign(b[1] - p[1])];
    // the inward normal of a side walked (dx, dy) with the cells on its right: (-dy, dx)
    const x = p[0] * UNIT + INSET * (-din[1] - dout[1]);
    const y = p[1] * UNIT + INSET * (din[0] + dout[0]);
    return `${x} ${y}`;
  });
  return `M${points.join("L")}Z`;
}

// A small grid of candidates, each with its role class when the hint names one.
export function candidateGrid(symbols, size, mask, roles) {
  const grid = el("div", "cands");
  grid.setAttribute("aria-hidden", "true");  // the cell's label says them
  for (let v = 1; v <= size; v++) {
    const has = mask & (1 << (v - 1));
    // a space between candidates: the grid ignores it, text readers see separate symbols
    grid.append(el("span", has ? (roles?.get(v) || "") : "", has ? symbols[v - 1] : ""), " ");
  }
  return grid;
}

function cornerMarks(symbols, marks, size) {
  const box = el("div", "corner");
  box.setAttribute("aria-hidden", "true");
  const many = marks.length > CORNER_SPOTS.length || size > 9;
  box.classList.toggle("many", many);
  marks.forEach((v, k) => {
    const mark = el("span", "", symbols[v - 1]);
    if (!many) {
      const [r, c] = CORNER_SPOTS[k];
      mark.style.gridRow = r + 1;
      mark.style.gridColumn = c + 1;
    }
    box.append(mark, " ");
  });
  return box;
}

// Fill one cell: colour, value or marks, and the words a screen reader says. The same
// content twice does nothing (the page redraws after every key).
export function fillCell(cellEl, i, view, extra = {}) {
  const { shape, symbols } = view;
  const [r, c] = shape.cells[i];
  const value = view.values[i];
  const given = view.givens[i] !== 0;
  const colour = view.colours ? view.colours[i] : 0;
  const corner = !value && view.corner ? values(view.corner[i]) : [];
  const centre = !value && view.centre ? values(view.centre[i]) : [];
  const cands = !value && extra.candidates ? extra.candidates : 0;
  const roles = extra.roles ? [...extra.roles].join(";") : "";
  const source = view.sources ? view.sources[i] : 0;
  const state = extra.said || "";
  const key = `${symbols}|${value}|${given}|${colour}|${corner}|${centre}|${cands}|${roles}|${source}|${state}`;
  if (cellEl._drawn === key) return;
  cellEl._drawn = key;
  // the cell's name is its content: hidden words before and after what is drawn (the
  // marks are drawn for the eye and said in the words)
  const parts = [el("span", "sr", `Row ${r + 1}, column ${c + 1}: `)];
  if (colour) parts.push(el("span", `colour col${colour}`));
  let said;
  if (value) {
    parts.push(el("span", "value", symbols[value - 1]));
    said = given ? ", given" : "";
  } else if (cands) {
    parts.push(candidateGrid(symbols, shape.size, cands, extra.roles));
    said = `empty, candidates ${values(cands).map((v) => symbols[v - 1]).join(" ")}`;
  } else {
    if (corner.length) parts.push(cornerMarks(symbols, corner, shape.size));
    if (centre.length) {
      const marks = el("span", `centre n${Math.min(centre.length, 9)}`, centre.map((v) => symbols[v - 1]).join(""));
      marks.setAttribute("aria-hidden", "true");
      parts.push(marks);
    }
    said = "empty" + (corner.length ? `, corner marks ${corner.map((v) => symbols[v - 1]).join(" ")}` : "")
      + (centre.length ? `, centre marks ${centre.map((v) => symbols[v - 1]).join(" ")}` : "");
  }
  const note = cellEl.dataset.note ? `, ${cellEl.dataset.note}` : "";
  parts.push(el("span", "sr", `${said}${colour ? `, colour ${colour}` : ""}${state ? `, ${state}` : ""}${note}`));
  cellEl.replaceChildren(...parts);
  cellEl.classList.toggle("given", given);
  cellEl.classList.toggle("by-step", !given && source === 1);
  cellEl.classList.toggle("by-solve", !given && source === 2);
}
