// The game list: a card per game (vendor/games.js, generated from
// py/registry.py), each with a drawing of its board, or of the unfinished
// game's position that the Python side left as a preview
// (py/app/model/saves.py), and its "continue" mark. The drawings are built
// element by element from [tag, attributes, children] nodes (svgElement),
// as the guide's figures are.

import { GAMES as GAME_LIST } from "../vendor/games.js";
import { $, svgElement } from "./dom.js";
import { SCHEMA, has, t } from "./i18n.js";

/** The picker's cards, one per game, from the card template. Their text is
 * the English of vendor/games.js until the catalogs are in (applyCatalog
 * then translates it by the data-i18n keys), as the page's own markup is.
 * A game with variants (the swap rule on or off) offers each inside its card.
 * The drawings and the "continue" marks are drawn by refreshCards. */
export function renderCards() {
  const template = $("card-template").content.firstElementChild;
  const cards = GAME_LIST.map(({ game, variants, art, text }) => {
    const item = template.cloneNode(true);
    item.dataset.game = game;
    const card = item.querySelector(".card");
    card.setAttribute("href", `#/${game}`);
    card.dataset.testid = `pick-${game}`;
    const picture = item.querySelector(".card-art");
    picture.dataset.testid = `card-art-${game}`;
    picture.classList.add(art.drawing);
    item.querySelector(".card-badge").dataset.testid = `card-continue-${game}`;
    labelled(item.querySelector(".card-name"), `games.${game}.name`, text);
    labelled(item.querySelector(".card-desc"), `games.${game}.desc`, text);
    const choices = item.querySelector(".card-variants");
    choices.hidden = !variants.length;
    choices.dataset.testid = `card-variants-${game}`;
    if (variants.length) choices.dataset.i18nAttr = "aria-label:settings.swap";
    for (const variant of variants) {
      const link = labelled(document.createElement("a"), `variant.${game}.${variant.replace("-", "_")}`, text);
      link.setAttribute("href", `#/${game}/${variant}`);
      link.dataset.testid = `pick-${game}-${variant}`;
      choices.append(link);
    }
    return item;
  });
  $("cards").replaceChildren(...cards);
  refreshCards();
}

/** Each card's drawing: the unfinished game's position with a "continue"
 * mark when the Python side left a preview of it (py/app/model/saves.py,
 * ``preview/<game>``), else the game's empty board. Drawn whenever the
 * game list is shown, in the language on screen. */
export function refreshCards() {
  for (const item of $("cards").children) {
    const { art } = GAME_LIST.find((entry) => entry.game === item.dataset.game);
    const preview = readPreview(item.dataset.game, art);
    const picture = item.querySelector(".card-art");
    const drawing = BOARD_DRAWINGS[art.drawing](preview ? preview.size : art.size, preview, art);
    picture.setAttribute("viewBox", drawing.viewBox);
    picture.replaceChildren(...drawing.nodes.map((node) => svgElement(node, picture.namespaceURI)));
    item.classList.toggle("unfinished", preview !== null);
    picture.classList.toggle("red-blue", Boolean(preview && preview.red_blue === true));
    const badge = item.querySelector(".card-badge");
    const note = item.querySelector(".card-unfinished");
    // Before the catalogs are in (the first drawing), the mark waits for its words.
    const marked = preview !== null && has("card.continue");
    badge.hidden = note.hidden = !marked;
    if (marked) {
      badge.textContent = t(preview.to_move === "you" ? "card.your_move" : "card.continue");
      note.textContent = t("card.unfinished", { count: preview.moves });
    }
  }
}

/** The stored preview of ``game``'s unfinished game if it is one the card
 * can draw, else null: a missing, damaged or foreign value only means the
 * plain board. */
function readPreview(game, art) {
  try {
    const raw = localStorage.getItem(`abstract-games/preview/${game}`);
    if (!raw) return null;
    const envelope = JSON.parse(raw);
    const preview = envelope && envelope.schema === SCHEMA ? envelope.data : null;
    if (!preview || typeof preview !== "object") return null;
    const { size, cells, boards, last, moves, to_move: toMove } = preview;
    if (!Number.isInteger(size) || typeof cells !== "string" || typeof boards !== "string") return null;
    if (!Number.isInteger(last) || !Number.isInteger(moves) || moves < 1 || typeof toMove !== "string") return null;
    // How many cells and small boards a preview has at its size (null: a
    // size the game does not have).
    const shape = Object.hasOwn(art.shapes, size) ? art.shapes[size] : null;
    if (!shape || cells.length !== shape.cells || boards.length !== shape.boards) return null;
    if (!/^[01.]*$/.test(cells) || !/^[01.-]*$/.test(boards) || last < -1 || last >= shape.cells) return null;
    return preview;
  } catch (error) {
    console.warn(`shell: the preview of ${game} is unreadable and was ignored`, error);
    return null;
  }
}

// The board drawings of the cards (py/registry.py names one per game, its
// card_art): (size, preview or null, the game's art from vendor/games.js)
// -> {viewBox, nodes}, nodes as svgElement builds them. Colours come from
// css/app.css (the "card art" block) by class.
const BOARD_DRAWINGS = { grids: drawGrids, nested_grid: drawNestedGrid, cells: drawCells };

const num = (value) => String(Math.round(value * 100) / 100);

/** An X of half-width r around (x, y), as path data. */
function crossPath(x, y, r) {
  return `M${num(x - r)} ${num(y - r)}L${num(x + r)} ${num(y + r)}M${num(x + r)} ${num(y - r)}L${num(x - r)} ${num(y + r)}`;
}

/** Tic-tac-toe boards side by side (two rows from four boards), each a
 * grid with its X (both players play X: every cell "0" is one); a closed
 * board greyed. */
function drawGrids(count, preview) {
  const cell = 10;
  const gap = 8;
  const perRow = count <= 3 ? count : Math.ceil(count / 2);
  const rows = Math.ceil(count / perRow);
  const nodes = [];
  for (let board = 0; board < count; board += 1) {
    const x0 = (board % perRow) * (3 * cell + gap);
    const y0 = Math.floor(board / perRow) * (3 * cell + gap);
    const closed = preview && preview.boards[board] === "-";
    const grid = [1, 2].map((k) => `M${x0 + k * cell} ${y0 + 1}v${3 * cell - 2}M${x0 + 1} ${y0 + k * cell}h${3 * cell - 2}`).join("");
    const children = [["path", { class: "ca-grid", d: grid }, []]];
    let marks = "";
    let last = "";
    for (let position = 0; position < 9; position += 1) {
      const index = board * 9 + position;
      if (!preview || preview.cells[index] !== "0") continue;
      const path = crossPath(x0 + (position % 3 + 0.5) * cell, y0 + (Math.floor(position / 3) + 0.5) * cell, 3);
      if (index === preview.last) last = path;
      else marks += path;
    }
    if (marks) children.push(["path", { class: "ca-x", d: marks }, []]);
    if (last) children.push(["path", { class: "ca-x ca-last", d: last }, []]);
    nodes.push(["g", { class: closed ? "ca-board closed" : "ca-board" }, children]);
  }
  const width = perRow * 3 * cell + (perRow - 1) * gap;
  const height = rows * 3 * cell + (rows - 1) * gap;
  return { viewBox: `-2 -2 ${width + 4} ${height + 4}`, nodes };
}

/** A board of nine small tic-tac-toe boards (Ultimate Tic-Tac-Toe): the
 * 9 x 9 cells, thin lines inside the small boards and thick ones between
 * them; X and O, decided small boards tinted. */
function drawNestedGrid(side, preview) {
  const cell = 4;
  const full = 9 * cell;
  const nodes = [];
  if (preview) {
    for (let board = 0; board < 9; board += 1) {
      const result = preview.boards[board];
      if (result === ".") continue;
      const kind = { 0: "won-x", 1: "won-o", "-": "drawn" }[result];
      nodes.push(["rect", { class: `ca-decided ${kind}`, x: (board % 3) * 3 * cell, y: Math.floor(board / 3) * 3 * cell, width: 3 * cell, height: 3 * cell }, []]);
    }
  }
  let thin = "";
  for (let k = 1; k < 9; k += 1) if (k % 3) thin += `M${k * cell} 0v${full}M0 ${k * cell}h${full}`;
  nodes.push(["path", { class: "ca-grid", d: thin }, []]);
  nodes.push(["path", { class: "ca-grid thick", d: `M${3 * cell} 0v${full}M${6 * cell} 0v${full}M0 ${3 * cell}h${full}M0 ${6 * cell}h${full}` }, []]);
  if (preview) {
    let crosses = "";
    const rings = [];
    for (let index = 0; index < 81; index += 1) {
      const mark = preview.cells[index];
      if (mark === ".") continue;
      const x = (index % 9 + 0.5) * cell;
      const y = (Math.floor(index / 9) + 0.5) * cell;
      const last = index === preview.last ? " ca-last" : "";
      if (mark === "0" && last) nodes.push(["path", { class: `ca-x${last}`, d: crossPath(x, y, 1.2) }, []]);
      else if (mark === "0") crosses += crossPath(x, y, 1.2);
      else rings.push(["circle", { class: `ca-o${last}`, cx: num(x), cy: num(y), r: "1.25" }, []]);
    }
    if (crosses) nodes.push(["path", { class: "ca-x", d: crosses }, []]);
    nodes.push(...rings);
  }
  return { viewBox: `-1 -1 ${full + 2} ${full + 2}`, nodes };
}

/** A hexagon of circumradius 1 around (x, y) as path data; flat-topped
 * from 0 degrees, pointy-topped from 30. */
function hexagonPath(x, y, start) {
  let path = "";
  for (let k = 0; k < 6; k += 1) {
    const angle = ((start + 60 * k) * Math.PI) / 180;
    path += `${k ? "L" : "M"}${num(x + Math.cos(angle))} ${num(y + Math.sin(angle))}`;
  }
  return `${path}Z`;
}

/** Hexagonal cells (Hex, Y): the cells as one path, the edges as bands just
 * outside, the stones blue (the first player) and green, a dot on the last
 * move. The geometry is the registry's (art.cells: the cells' centres, the
 * corners, the sides' colours), as on the game's board (py/app/views/):
 * Hex a rhombus with its acute corners left and right, blue owning the
 * top-left and bottom-right edges; Y a triangle with its apex at the top. */
function drawCells(side, preview, { cells }) {
  const { shape, x: [sx, xr, xc], y: [sy, yr, yc] } = cells;
  const centres = [];
  const rowStart = [];
  for (let r = 0; r < side; r += 1) {
    rowStart.push(centres.length);
    const columns = shape === "rhombus" ? side : r + 1;
    for (let c = 0; c < columns; c += 1) centres.push([sx * (xr * r + xc * c), sy * (yr * r + yc * c)]);
  }
  const n = side - 1;
  const corners = cells.corners.map(([r, c]) => centres[rowStart[r * n] + c * n]);
  const xs = centres.map(([x]) => x);
  const ys = centres.map(([, y]) => y);
  const middle = [corners.reduce((sum, [x]) => sum + x, 0) / corners.length, corners.reduce((sum, [, y]) => sum + y, 0) / corners.length];
  const [a, b] = [corners[0], corners[1]];
  const inner = Math.abs((b[0] - a[0]) * (a[1] - middle[1]) - (a[0] - middle[0]) * (b[1] - a[1])) / Math.hypot(b[0] - a[0], b[1] - a[1]);
  const out = (point, margin) => {
    const k = (inner + margin) / inner;
    return `${num(middle[0] + (point[0] - middle[0]) * k)} ${num(middle[1] + (point[1] - middle[1]) * k)}`;
  };
  const nodes = cells.edges.map((kind, from) => {
    const to = (from + 1) % corners.length;
    return ["path", {
      class: `ca-edge ${kind}`,
      d: `M${out(corners[from], 1.05)}L${out(corners[to], 1.05)}L${out(corners[to], 1.75)}L${out(corners[from], 1.75)}Z`,
    }, []];
  });
  nodes.push(["path", { class: "ca-cells", d: centres.map(([x, y]) => hexagonPath(x, y, cells.hexagon)).join("") }, []]);
  if (preview) {
    centres.forEach(([x, y], index) => {
      const mark = preview.cells[index];
      if (mark !== ".") nodes.push(["circle", { class: mark === "0" ? "ca-stone blue" : "ca-stone green", cx: num(x), cy: num(y), r: "0.78" }, []]);
    });
    if (preview.last >= 0 && preview.cells[preview.last] !== ".") {
      const [x, y] = centres[preview.last];
      nodes.push(["circle", { class: "ca-last-dot", cx: num(x), cy: num(y), r: "0.3" }, []]);
    }
  }
  const pad = 2.6;
  const viewBox = [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) - Math.min(...xs) + 2 * pad, Math.max(...ys) - Math.min(...ys) + 2 * pad].map(num).join(" ");
  return { viewBox, nodes };
}

/** The element showing catalog text ``key``, in English for now. */
function labelled(element, key, english) {
  element.dataset.i18n = key;
  element.textContent = english[key];
  return element;
}
