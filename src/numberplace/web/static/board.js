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
export function buildBoard(board, shape) {
  board.replaceChildren();
  board.style.setProperty("--rows", shape.rows);
  board.style.setProperty("--cols", shape.cols);
  board.style.setProperty("--cell", cellSize(shape) + "px");
  const diagonal = new Set(shape.diagonal);
  const byRow = new Map();
  shape.cells.forEach(([r, c], i) => {
    if (!byRow.has(r)) byRow.set(r, []);
    byRow.get(r).push([c, i]);
  });
  const cells = new Array(shape.cells.length);
  [...byRow.keys()].sort((a, b) => a - b).forEach((r) => {
    const row = document.createElement("div");
    row.setAttribute("role", "row");
    row.style.display = "contents";
    byRow.get(r).sort((a, b) => a[0] - b[0]).forEach(([c, i]) => {
      const cell = document.createElement("div");
      cell.className = "cell";
      cell.setAttribute("role", "gridcell");
      cell.tabIndex = -1;
      cell.dataset.cell = i;
      cell.style.gridRow = r + 1;
      cell.style.gridColumn = c + 1;
      for (const [bit, name] of SIDES) if (shape.thick[i] & bit) cell.classList.add(name);
      if (diagonal.has(i)) cell.classList.add("diag");
      cells[i] = cell;
      row.append(cell);
    });
    board.append(row);
  });
  return cells;
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
  el.setAttribute("aria-label", `Row ${r + 1}, column ${c + 1}: ${said}${colour ? `, colour ${colour}` : ""}`);
}
