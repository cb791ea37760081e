// The guide's diagrams: small pictures of the ideas its text explains, as
// [tag, attributes, children] nodes that shell/guide.js builds element by element
// (as it does the cards' art). Loaded the first time a guide is shown, so
// the game list never waits for it. Colours come from classes (css/app.css,
// "guide diagrams"), so light and dark both work; shapes say what colours
// do (a dot on a cell that matters, a dashed outline on a target).
// Each figure's caption is the catalog's guide.<game>.fig_<name>. A game's
// board drawn whole takes its shape from the registry (vendor/games.js,
// generated from py/registry.py), as the cards do.

import { GAMES } from "../vendor/games.js";

const node = (tag, attributes, ...children) => [tag, attributes, children];
const r1 = (value) => Math.round(value * 10) / 10; // short attribute text
const points = (list) => list.map(([x, y]) => `${r1(x)},${r1(y)}`).join(" ");

// ------------------------------------------------------------- tic-tac-toe
/** A 3x3 board at (x, y) with cells of size c. marks: nine characters,
 * "x", "o" or "."; hot: cells marked with a dot; line: [from, to] cells
 * joined by a stroke (a completed line). */
function board(x, y, c, marks, { shade = "fig-board", hot = [], line = null } = {}) {
  const centre = (i) => [x + (i % 3 + 0.5) * c, y + (Math.floor(i / 3) + 0.5) * c];
  const size = 3 * c;
  const parts = [
    node("rect", { x, y, width: size, height: size, class: shade }),
    node("path", { class: "fig-grid", d: `M${x + c} ${y}v${size}M${x + 2 * c} ${y}v${size}M${x} ${y + c}h${size}M${x} ${y + 2 * c}h${size}` }),
  ];
  const r = c * 0.28;
  [...marks].forEach((mark, i) => {
    const [cx, cy] = centre(i);
    if (mark === "x") parts.push(node("path", { class: "fig-x", d: `M${r1(cx - r)} ${r1(cy - r)}l${r1(2 * r)} ${r1(2 * r)}m0 ${r1(-2 * r)}l${r1(-2 * r)} ${r1(2 * r)}` }));
    if (mark === "o") parts.push(node("circle", { class: "fig-o", cx: r1(cx), cy: r1(cy), r: r1(r) }));
  });
  for (const i of hot) {
    const [cx, cy] = centre(i);
    parts.push(node("circle", { class: "fig-hot", cx: r1(cx), cy: r1(cy), r: r1(c * 0.16) }));
  }
  if (line) {
    const [[ax, ay], [bx, by]] = line.map(centre);
    parts.push(node("line", { class: "fig-line", x1: r1(ax), y1: r1(ay), x2: r1(bx), y2: r1(by) }));
  }
  return parts;
}

/** An arrow from (ax, ay) to (bx, by): a shaft and a filled head. */
function arrow(ax, ay, bx, by, head = 2.2) {
  const length = Math.hypot(bx - ax, by - ay);
  const [ux, uy] = [(bx - ax) / length, (by - ay) / length];
  const [sx, sy] = [bx - ux * head, by - uy * head];
  return [
    node("line", { class: "fig-arrow", x1: ax, y1: ay, x2: r1(sx), y2: r1(sy) }),
    node("polygon", { class: "fig-arrow-head", points: points([[bx, by], [sx - uy * head * 0.6, sy + ux * head * 0.6], [sx + uy * head * 0.6, sy - ux * head * 0.6]]) }),
  ];
}

// Ultimate Tic-Tac-Toe: nine small boards of cell 4, 3 apart.
const UT_CELL = 4;
const utOrigin = (k) => [1.5 + (k % 3) * 15, 1.5 + Math.floor(k / 3) * 15];
const utCentre = (k, i) => {
  const [x, y] = utOrigin(k);
  return [x + (i % 3 + 0.5) * UT_CELL, y + (Math.floor(i / 3) + 0.5) * UT_CELL];
};

/** The big board: smalls maps a small board to its marks; won maps a decided
 * small board to its owner; targets are outlined; played is [board, cell]. */
function bigBoard({ smalls, won = {}, targets, played }) {
  const parts = [];
  for (let k = 0; k < 9; k += 1) {
    const [x, y] = utOrigin(k);
    const shade = k in won ? "fig-closed" : targets.includes(k) ? "fig-target" : "fig-board";
    parts.push(...board(x, y, UT_CELL, k in won ? "........." : smalls[k] || ".........", { shade }));
    if (won[k] === "o") parts.push(node("circle", { class: "fig-o fig-big", cx: x + 6, cy: y + 6, r: 4.2 }));
    if (won[k] === "x") parts.push(node("path", { class: "fig-x fig-big", d: `M${x + 2} ${y + 2}l8 8m0 -8l-8 8` }));
    if (targets.includes(k)) parts.push(node("rect", { class: "fig-outline", x: x - 0.6, y: y - 0.6, width: 13.2, height: 13.2 }));
  }
  const [cx, cy] = utCentre(...played);
  parts.push(node("rect", { class: "fig-played", x: cx - 2, y: cy - 2, width: 4, height: 4 }));
  return parts;
}

// -------------------------------------------------------------- hex and y
// Hexagonal cells, pointy side up: a cell at (x, row) has its centre x cells
// across (half cells for the rows in between) and 1.5 radii down per row.
const S = 5;
const W = S * Math.sqrt(3);
const PAD = 6;
const at = (x, row) => [PAD + x * W, PAD + row * 1.5 * S];
const HEX = [[0, -S], [W / 2, -S / 2], [W / 2, S / 2], [0, S], [-W / 2, S / 2], [-W / 2, -S / 2]];

/** One cell: its hexagon, and a stone ("blue", "green"), a dot ("hot") or
 * a dashed ring ("weak") on it; area tints it (a template's cells). */
function cell(x, row, { stone = null, area = false } = {}) {
  const [cx, cy] = at(x, row);
  const parts = [node("polygon", { class: area ? "fig-cell fig-area" : "fig-cell", points: points(HEX.map(([dx, dy]) => [cx + dx, cy + dy])) })];
  if (stone === "blue" || stone === "green") parts.push(node("circle", { class: `fig-${stone}`, cx: r1(cx), cy: r1(cy), r: r1(S * 0.62) }));
  if (stone === "hot") parts.push(node("circle", { class: "fig-hot", cx: r1(cx), cy: r1(cy), r: r1(S * 0.3) }));
  if (stone === "weak") parts.push(node("circle", { class: "fig-weak", cx: r1(cx), cy: r1(cy), r: r1(S * 0.62) }));
  return parts;
}

/** Rows of cells: rows[row] is a list of x positions; marks maps "x,row"
 * to a cell's options. */
function patch(rows, marks = {}) {
  return rows.flatMap((xs, row) => xs.flatMap((x) => cell(x, row, marks[`${x},${row}`])));
}

/** An edge strip under row ``row``, from x0 to x1, in blue's colour. */
function edgeBelow(row, x0, x1) {
  const [left, y] = at(x0, row);
  const [right] = at(x1, row);
  return node("rect", { class: "fig-edge", x: r1(left), y: r1(y + S * 1.15), width: r1(right - left), height: 2.4 });
}

function svg(width, height, children, left = 0) {
  return node("svg", { viewBox: `${left} 0 ${r1(width - 2 * left)} ${r1(height)}`, role: "img" }, ...children);
}

/** A board of pointy-topped hexagonal cells of side n as rows of x
 * positions (in cells across, the leftmost 0), from the game's cells in
 * the registry (vendor/games.js: its shape and how a row shifts). */
function boardRows(game, n) {
  const { shape, x: [, perRow, perColumn] } = GAMES.find((entry) => entry.game === game).art.cells;
  const rows = Array.from({ length: n }, (_, row) => Array.from({ length: shape === "rhombus" ? n : row + 1 }, (_, c) => perRow * row + perColumn * c));
  const left = Math.min(...rows.flat());
  return rows.map((xs) => xs.map((x) => x - left));
}

/** The triangle of Y (side n) with its corner stone and the two edges it
 * touches drawn bold; the third edge plain. The sides run 5.5 units outside
 * the cells' centres, so they meet 11 out from each corner cell. */
function yCorner(n) {
  const rows = boardRows("y", n);
  const marks = {};
  rows.forEach((xs, row) => xs.forEach((x, c) => {
    if (c === 0 || row === n - 1) marks[`${x},${row}`] = { area: true };
  }));
  marks[`${rows[n - 1][0]},${n - 1}`].stone = "blue";
  const corner = ([x, y], [dx, dy]) => [x + 11 * dx, y + 11 * dy];
  const top = corner(at(rows[0][0], 0), [0, -1]);
  const left = corner(at(rows[n - 1][0], n - 1), [-0.866, 0.5]);
  const right = corner(at(rows[n - 1][n - 1], n - 1), [0.866, 0.5]);
  const side = ([x1, y1], [x2, y2], hot) => node("line", {
    class: hot ? "fig-side fig-side-hot" : "fig-side", x1: r1(x1), y1: r1(y1), x2: r1(x2), y2: r1(y2),
  });
  const box = [left[0] - 2, top[1] - 2, right[0] - left[0] + 4, left[1] - top[1] + 4].map(r1).join(" ");
  return node("svg", { viewBox: box, role: "img" },
    ...patch(rows, marks), side(top, right, false), side(top, left, true), side(left, right, true));
}

// ----------------------------------------------------------------- figures
/** By game: the section whose text explains each figure, its name (its
 * caption is guide.<game>.fig_<name>) and its picture. */
export const FIGURES = {
  notakto: [
    ["rules", "closed", svg(34, 34, board(2, 2, 10, "x.x.x...x", { shade: "fig-closed", line: [0, 8] }))],
    ["rules", "poisoned", svg(80, 34, [
      ...board(1, 6, 7, "xxx.x....", { shade: "fig-closed", line: [0, 2] }),
      ...board(24, 6, 7, "x..x.xx..", { shade: "fig-closed", line: [0, 6] }),
      ...board(48, 2, 10, "xx.x.x.xx", { hot: [2, 4, 6] }),
    ])],
  ],
  uttt: [
    ["rules", "sent", svg(45, 45, [
      ...bigBoard({ smalls: { 0: "x...o....", 4: "..x.o....", 2: "....x...." }, targets: [2], played: [4, 2] }),
      ...arrow(28, 17, 32.5, 12.5),
    ])],
    ["rules", "free", svg(45, 45, [
      ...bigBoard({ smalls: { 0: "oxxooo.x.", 4: "x...o...." }, won: { 0: "o" }, targets: [1, 2, 3, 4, 5, 6, 7, 8], played: [4, 0] }),
      ...arrow(18, 18, 13.2, 13.2),
    ])],
  ],
  hex: [
    ["strategy", "bridge", svg(2 * PAD + 3 * W, 2 * PAD + 3 * S, patch(
      [[0.5, 1.5, 2.5], [0, 1, 2, 3], [0.5, 1.5, 2.5]],
      { "1.5,0": { stone: "blue" }, "1.5,2": { stone: "blue" }, "1,1": { stone: "hot" }, "2,1": { stone: "hot" } },
    ))],
    ["strategy", "template", svg(2 * PAD + 4.5 * W, 2 * PAD + 3 * S + 4, [
      ...patch([[0.5, 1.5, 2.5, 3.5, 4.5], [0, 1, 2, 3, 4], [0.5, 1.5, 2.5, 3.5, 4.5]], {
        "1.5,0": { stone: "blue", area: true }, "2.5,0": { area: true },
        "1,1": { area: true }, "2,1": { area: true }, "3,1": { area: true },
        "0.5,2": { area: true }, "1.5,2": { area: true }, "2.5,2": { area: true }, "3.5,2": { area: true },
      }),
      edgeBelow(2, -0.5, 5),
    ])],
    ["strategy", "block", svg(2 * PAD + 4.5 * W, 2 * PAD + 6 * S + 4, [
      ...patch([[0, 1, 2, 3, 4], [0.5, 1.5, 2.5, 3.5, 4.5], [0, 1, 2, 3, 4], [0.5, 1.5, 2.5, 3.5, 4.5], [0, 1, 2, 3, 4]], {
        "2,0": { stone: "blue" }, "2.5,1": { stone: "weak" }, "2,2": { stone: "green" },
      }),
      edgeBelow(4, -0.5, 4.5),
    ])],
  ],
  y: [
    ["rules", "corner", yCorner(5)],
  ],
};
