// The shell: what must work before Python is ready, and the services the
// Python layer borrows from the browser. Language (catalogs, plural rules,
// number formats through Intl), hash routes, the guide, the loading
// indicator and the friendly error panel; its URL parameters, the messages
// to an embedding page, and offline support (the service worker, sw.js).
// Game logic lives in py/.

// The games, in the order of the list: generated from py/registry.py into
// vendor/games.js by tools/build_site.py (`make runtime`).
import { GAMES as GAME_LIST } from "./vendor/games.js";
// The AI worker's side of the runtime (runtime.js, which index.html loads
// first: the page's interpreter is already starting).
import { startFailure, startWorker } from "./runtime.js";

const engine = startEngine();

const LANGUAGES = ["en", "de", "pt", "id"];
const GAMES = GAME_LIST.map((entry) => entry.game);
const PREFS_KEY = "abstract-games/prefs";
const SCHEMA = 1;
const LOAD_TIMEOUT_MS = 90000;
// The URL parameters the shell reads; py/app/model/embed.py reads the games'
// settings (and warns about any other name).
const SHELL_PARAMS = ["game", "lang", "theme", "embed"];
const THEMES = ["light", "dark"];
// Every message to an embedding page carries this source.
const MESSAGE_SOURCE = "abstract-games";
const EMBEDDED = window.parent !== window;

const $ = (id) => document.getElementById(id);
const catalogs = {};
let lang = "en";
const languageListeners = [];
const routeListeners = [];
let pythonReady = false;

// ---------------------------------------------------------------- storage
// The language choice is the shell's only stored value; it uses the same
// envelope as the Python storage layer and ignores anything it cannot read.
function readPrefs() {
  try {
    const raw = localStorage.getItem(PREFS_KEY);
    if (!raw) return {};
    const envelope = JSON.parse(raw);
    if (envelope && envelope.schema === SCHEMA && envelope.data && typeof envelope.data === "object") {
      return envelope.data;
    }
  } catch (error) {
    console.warn("shell: stored preferences are unreadable and were ignored", error);
  }
  return {};
}

function writePrefs(prefs) {
  try {
    localStorage.setItem(PREFS_KEY, JSON.stringify({ schema: SCHEMA, data: prefs }));
  } catch (error) {
    console.warn("shell: preferences could not be stored", error);
  }
}

// ------------------------------------------------------------------- i18n
function pickLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && LANGUAGES.includes(asked)) return asked;
  if (asked) console.warn(`shell: unknown language ${JSON.stringify(asked)} in the URL was ignored`);
  const stored = readPrefs().lang;
  if (LANGUAGES.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

async function loadCatalog(code) {
  if (!catalogs[code]) {
    const response = await fetch(`./i18n/${code}.json`);
    if (!response.ok) throw new Error(`catalog ${code}: HTTP ${response.status}`);
    catalogs[code] = await response.json();
  }
  return catalogs[code];
}

function formatValue(value) {
  return typeof value === "number" ? new Intl.NumberFormat(lang).format(value) : String(value);
}

/** The catalog text for key, with {placeholders} filled in. A value that is
 * an object holds CLDR plural forms chosen by params.count. */
function t(key, params = {}) {
  let text = (catalogs[lang] || {})[key];
  if (text === undefined) text = (catalogs.en || {})[key];
  if (text === undefined) {
    console.warn(`shell: missing catalog key ${key}`);
    return key;
  }
  if (typeof text === "object") {
    const form = new Intl.PluralRules(lang).select(Number(params.count ?? 0));
    text = text[form] ?? text.other;
  }
  return text.replace(/\{(\w+)\}/g, (match, name) => (name in params ? formatValue(params[name]) : match));
}

function has(key) {
  return key in (catalogs[lang] || {}) || key in (catalogs.en || {});
}

function applyCatalog(root = document) {
  for (const element of root.querySelectorAll("[data-i18n]")) {
    element.textContent = t(element.dataset.i18n);
  }
  for (const element of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of element.dataset.i18nAttr.split(";")) {
      const [attribute, key] = pair.split(":");
      element.setAttribute(attribute, t(key));
    }
  }
}

async function setLanguage(code, remember = true) {
  if (!LANGUAGES.includes(code)) return;
  await Promise.all([loadCatalog("en"), loadCatalog(code)]);
  lang = code;
  document.documentElement.lang = code;
  $("lang").value = code;
  $("manifest").href = `./vendor/manifest-${code}.webmanifest`;
  if (remember) writePrefs({ ...readPrefs(), lang: code });
  applyCatalog();
  renderRoute();
  for (const listener of languageListeners) callListener(listener, code);
}

// ----------------------------------------------------------------- format
function formatDuration(ms) {
  const seconds = Math.round(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes === 0) return t("time.seconds", { count: rest });
  return t("time.minutes_seconds", { minutes, seconds: String(rest).padStart(2, "0") });
}

function formatDate(ms) {
  return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(ms));
}

function formatPercent(fraction) {
  return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(fraction);
}

// ------------------------------------------------------------ game list
/** The picker's cards, one per game, from the card template. Their text is
 * the English of vendor/games.js until the catalogs are in (applyCatalog
 * then translates it by the data-i18n keys), as the page's own markup is.
 * A game with variants (the swap rule on or off) offers each inside its card.
 * The drawings and the "continue" marks are drawn by refreshCards. */
function renderCards() {
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
function refreshCards() {
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

/** A picture's node, [tag, attributes, children], as an element of the
 * picture's namespace (SVG's): built, never parsed from markup. */
function svgElement([tag, attributes, children], namespace) {
  const element = document.createElementNS(namespace, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children.map((child) => svgElement(child, namespace)));
  return element;
}

// ----------------------------------------------------------------- routes
// Routes: #/<game> for each game of the list, a variant picked from the
// list (#/hex/swap, #/hex/no-swap: a game with the swap rule) and settings
// in a link (#/hex?size=9&vs=master): the query is the game's settings, read
// by py/app/page/app.py (its router) as the page's URL parameters are.
// A game's guide (#/hex/guide) and the statistics explained (#/hex/statistics)
// are pages of the shell over the game's screen: the router sees the game
// (currentRoute), so the game on its screen stays as it is, and a page's
// route carries no settings or variant for it to apply.
const ROUTE = /^#\/([a-z]+)(?:\/(swap|no-swap|guide|statistics))?\/?(?:\?(.*))?$/;
const PAGES = ["guide", "statistics"];

function routeMatch() {
  const match = ROUTE.exec(location.hash);
  return match && GAMES.includes(match[1]) ? match : null;
}

function currentRoute() {
  const match = routeMatch();
  return match ? match[1] : null;
}

function currentVariant() {
  const match = routeMatch();
  return match && match[2] && !PAGES.includes(match[2]) ? match[2] : null;
}

/** The shell's page over the game ("guide", "statistics"), or null. */
function currentPage() {
  const match = routeMatch();
  return match && PAGES.includes(match[2]) ? match[2] : null;
}

function currentRouteQuery() {
  const match = routeMatch();
  return match && match[3] && !currentPage() ? match[3] : "";
}

// The guide's diagrams (guide.js), loaded the first time a guide is shown.
let figures = null;
let figuresAsked = false;

function loadFigures() {
  if (figuresAsked) return;
  figuresAsked = true;
  import("./guide.js").then((module) => {
    figures = module.FIGURES;
    if (currentPage() === "guide") renderRoute();
  }).catch((error) => console.warn("shell: the guide's diagrams could not be loaded", error));
}

/** A game's guide: rules, scoring (with a link to the statistics page, which
 * explains the statistics once for every game), strategy, questions; each
 * diagram after the text of its section. */
function renderGuide(game) {
  loadFigures();
  const guide = $("guide");
  guide.replaceChildren();
  const sections = [["rules", "guide.rules"], ["scoring", "guide.scoring"], ["strategy", "guide.strategy"]];
  for (const [section, title] of sections) {
    const key = `guide.${game}.${section}`;
    if (!has(key)) continue;
    const heading = document.createElement("h2");
    heading.textContent = t(title);
    guide.append(heading, ...paragraphs(t(key)));
    if (section === "scoring") {
      const more = document.createElement("p");
      more.append(pageLink(game, "statistics", t("guide.statistics"), "guide-stats-link"));
      guide.append(more);
    }
    const drawn = (figures?.[game] || []).filter(([where]) => where === section);
    if (drawn.length) guide.append(figureRow(game, drawn));
  }
  // Hints, the evaluation bar and the analysis: the same for every game.
  const insight = document.createElement("h2");
  insight.id = "guide-analysis";
  insight.textContent = t("guide.analysis_title");
  guide.append(insight, ...paragraphs(t("guide.analysis")));
  const faq = [];
  for (let n = 1; has(`guide.${game}.faq${n}.q`); n += 1) faq.push(n);
  if (faq.length) {
    const heading = document.createElement("h2");
    heading.textContent = t("guide.faq");
    const list = document.createElement("dl");
    list.className = "faq";
    for (const n of faq) {
      const question = document.createElement("dt");
      question.textContent = t(`guide.${game}.faq${n}.q`);
      const answer = document.createElement("dd");
      answer.textContent = t(`guide.${game}.faq${n}.a`);
      list.append(question, answer);
    }
    guide.append(heading, list);
  }
}

/** The statistics explained, the same for every game. */
function renderStatisticsHelp(game) {
  const more = document.createElement("p");
  more.append(pageLink(game, "guide", t("guide.heading", { game: t(`games.${game}.name`) }), "stats-guide-link"));
  $("guide").replaceChildren(...paragraphs(t("guide.scoring_common")), more);
}

function pageLink(game, page, text, testid) {
  const link = document.createElement("a");
  link.href = `#/${game}/${page}`;
  link.textContent = text;
  link.dataset.testid = testid;
  return link;
}

/** Figures side by side, each a picture named by its caption. */
function figureRow(game, drawn) {
  const row = document.createElement("div");
  row.className = "guide-figs";
  const namespace = document.querySelector(".brand-mark").namespaceURI;
  for (const [, name, picture] of drawn) {
    const figure = document.createElement("figure");
    figure.className = "guide-fig";
    figure.dataset.figure = name;
    const caption = document.createElement("figcaption");
    caption.id = `fig-${game}-${name}`;
    caption.textContent = t(`guide.${game}.fig_${name}`);
    const image = svgElement(picture, namespace);
    image.setAttribute("aria-labelledby", caption.id);
    figure.append(image, caption);
    row.append(figure);
  }
  return row;
}

/** Catalog prose: blank lines separate paragraphs, lines starting "- " are
 * list items. Always inserted as text, never as HTML. */
function paragraphs(text) {
  return text.split(/\n\s*\n/).map((block) => {
    const lines = block.split("\n");
    if (lines.every((line) => line.startsWith("- "))) {
      const list = document.createElement("ul");
      for (const line of lines) {
        const item = document.createElement("li");
        item.textContent = line.slice(2);
        list.append(item);
      }
      return list;
    }
    const paragraph = document.createElement("p");
    paragraph.textContent = block;
    return paragraph;
  });
}

function renderRoute() {
  const game = currentRoute();
  const page = currentPage();
  $("picker").hidden = game !== null;
  $("game").hidden = game === null || page !== null;
  $("guide-page").hidden = page === null;
  document.body.dataset.route = game || "picker";
  if (game) {
    const name = t(`games.${game}.name`);
    $("game-title").textContent = name;
    document.title = `${name} · ${t("app.name")}`;
    $("guide-open").href = `#/${game}/guide`;
    $("stats-help").href = `#/${game}/statistics`;
    $("analysis-help").href = `#/${game}/guide`;
    $("guide-back").href = `#/${game}`;
  } else {
    document.title = t("app.title");
    refreshCards();
  }
  if (page === "guide") {
    $("guide-title").textContent = t("guide.heading", { game: t(`games.${game}.name`) });
    renderGuide(game);
  } else if (page === "statistics") {
    $("guide-title").textContent = t("guide.statistics");
    renderStatisticsHelp(game);
  }
  if (page) document.title = `${$("guide-title").textContent} · ${t("app.name")}`;
}

function onRouteChange() {
  if (location.hash && location.hash !== "#/" && currentRoute() === null) {
    console.warn(`shell: unknown route ${JSON.stringify(location.hash)}; showing the game list`);
  }
  const leaving = document.body.dataset.page || "";
  const before = document.body.dataset.route;
  renderRoute();
  const page = currentPage();
  document.body.dataset.page = page || "";
  let heading = currentRoute() ? $("game-title") : $("picker-title");
  if (page) {
    // A page opens at its top, its title focused (it is a new page to a
    // screen reader); back from it, the focus returns to the guide's link.
    heading = $("guide-title");
    window.scrollTo(0, 0);
  } else if (leaving && currentRoute()) {
    heading = $(leaving === "statistics" ? "stats-help" : "guide-open");
  } else if (before && before !== document.body.dataset.route) {
    // Another screen starts at its top: a card tapped low on the game list
    // must not open the game scrolled past its title and status.
    window.scrollTo(0, 0);
  }
  if (page || (document.activeElement && document.activeElement !== document.body)) heading.focus?.({ preventScroll: false });
  for (const listener of routeListeners) callListener(listener, currentRoute());
}

function callListener(listener, value) {
  try {
    listener(value);
  } catch (error) {
    showError("runtime", error);
  }
}

// ---------------------------------------------------------------- loading
const stages = { runtime: 0.1, starting: 0.7, games: 0.9, ready: 1 };
let loadingStage = null;
let loadingFill = 0;

// The loading bar only moves forward: the runtime's files can all be in
// before the catalog is, and the catalog's arrival must not take it back.
// Before the catalog is in, the text waits for it (applyCatalog writes it).
function setLoading(stage) {
  if (pythonReady || (loadingStage !== null && stages[stage] <= stages[loadingStage])) return;
  loadingStage = stage;
  fillLoading(stages[stage]);
  $("loading-text").dataset.i18n = `loading.${stage}`;
  if (has(`loading.${stage}`)) $("loading-text").textContent = t(`loading.${stage}`);
}

function fillLoading(share) {
  loadingFill = Math.max(loadingFill, share);
  $("loading-fill").style.width = `${Math.round(loadingFill * 100)}%`;
}

// Files of the runtime finishing download move the bar through its first
// stage, so a slow connection still shows progress.
// Once they are all in, Python is starting.
const runtimeFiles = { "pyodide.mjs": 0.02, "pyodide.asm.mjs": 0.08, "python_stdlib.zip": 0.15, "pyodide.asm.wasm": 0.35 };
const arrived = new Set();
if ("PerformanceObserver" in window) {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const name = entry.name.split("/").pop().split("?")[0];
      if (!(name in runtimeFiles) || arrived.has(name) || pythonReady) continue;
      arrived.add(name);
      if (arrived.size === Object.keys(runtimeFiles).length) {
        setLoading("starting");
      } else {
        fillLoading([...arrived].reduce((sum, file) => sum + runtimeFiles[file], stages.runtime));
      }
    }
  }).observe({ type: "resource", buffered: true });
}

function ready() {
  setLoading("ready");
  pythonReady = true;
  clearTimeout(loadTimer);
  document.body.dataset.ready = "true";
  $("loading").hidden = true;
  notifyParent({ type: "ready", game: currentRoute() });
}

startFailure.then((reason) => {
  if (!pythonReady) showError("load", reason);
});

const loadTimer = setTimeout(() => {
  if (!pythonReady) showError("load", new Error("Python did not start in time"));
}, LOAD_TIMEOUT_MS);

// ------------------------------------------------------------------ errors
/** A friendly panel instead of a dead page or a traceback; details go to the
 * console. kind: "load" (the engine never started) or "runtime". */
function showError(kind, detail) {
  if (detail) console.error(`shell: ${kind} error`, detail);
  // The page's markup holds the English load message, for a failure that
  // comes before the catalogs do (or that is the catalogs failing); a later
  // applyCatalog translates whichever message the data-i18n key names.
  const key = kind === "load" ? "error.load" : "error.runtime";
  const text = $("error-text");
  text.dataset.i18n = key;
  if (has(key)) text.textContent = t(key);
  $("error-continue").hidden = kind === "load" || !pythonReady;
  $("error").hidden = false;
  $(kind === "load" ? "error-reload" : "error-continue").focus();
}

window.addEventListener("error", (event) => {
  if (!pythonReady) showError("load", event.error || event.message);
});
window.addEventListener("unhandledrejection", (event) => {
  showError(pythonReady ? "runtime" : "load", event.reason);
});

// -------------------------------------------------------- URL parameters
// ?game=hex opens that game (an explicit #/route wins: it is where the player
// went), ?theme=light|dark overrides the system's, ?embed=1 is the compact
// layout for an iframe; ?lang= is read by pickLanguage. A bad value is
// ignored with a warning. Values are compared, never inserted into the page.
function applyShellParams() {
  const params = new URLSearchParams(location.search);
  const game = params.get("game");
  if (game !== null && !GAMES.includes(game)) {
    console.warn(`shell: unknown game ${JSON.stringify(game)} in the URL was ignored`);
  } else if (game !== null && currentRoute() === null) {
    history.replaceState(history.state, "", `#/${game}`);
  }
  const theme = params.get("theme");
  if (THEMES.includes(theme)) document.documentElement.dataset.theme = theme;
  else if (theme !== null) console.warn(`shell: unknown theme ${JSON.stringify(theme)} in the URL was ignored`);
  const embed = params.get("embed");
  if (embed === "1") {
    document.documentElement.dataset.embed = "1";
    // Compact: the panels start closed (the parameters chose the settings).
    for (const panel of document.querySelectorAll("details.panel")) panel.open = false;
  } else if (embed !== null && embed !== "0") {
    console.warn(`shell: embed=${JSON.stringify(embed)} in the URL was ignored (use embed=1)`);
  }
}

// -------------------------------------------------------------- embedding
// Messages to the embedding page: {source: "abstract-games", type: "ready" |
// "resize" | "gameover", ...} (docs/embedding.md). Posted to any origin
// ("*"): the app cannot know who embeds it, and the messages hold nothing
// private (the game's name, its result, the page's height), nothing the
// embedding page could not see in the frame anyway.
function notifyParent(message) {
  if (EMBEDDED) window.parent.postMessage({ source: MESSAGE_SOURCE, ...message }, "*");
}

// The page acts on no message from another window. This listener, the app's
// only one, acts on none either: it stops each before Pyodide's own listeners
// (its setImmediate), which expect only messages this window posts to itself.
window.addEventListener("message", (event) => {
  if (event.source !== window) event.stopImmediatePropagation();
}, true);

// The content's height, whenever it changes, so that the embedding page can
// size the frame to it (with embed=1 the page has no minimum height).
if (EMBEDDED && "ResizeObserver" in window) {
  let reported = 0;
  new ResizeObserver(() => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height !== reported) {
      reported = height;
      notifyParent({ type: "resize", height });
    }
  }).observe(document.documentElement);
}

// ----------------------------------------------------------- the AI worker
// The computer opponent's worker (worker.js), started with the page (when,
// runtime.js decides): the harness's page runs its bench module in it. The
// mark "computer-ready" (for tools/bench/; it also starts offline
// support) is set once it can answer, or has failed to start
// (py/app/page/engine.py then thinks on the page).
function startEngine() {
  const engine = startWorker(window.appHarness === true ? "bench_worker" : "worker");
  engine.ready.finally(() => performance.mark("computer-ready")).catch(() => {});
  return engine;
}

// ---------------------------------------------------------------- offline
// Registered once the AI worker is up (performance mark "computer-ready"), so
// that precaching the runtime never competes with the first load. A version
// that installed meanwhile (the browser checks on every visit) takes over
// now: this page has loaded everything, and the next load runs the new
// version and says so (checkUpdated).
function startOffline() {
  if (navigator.storage && navigator.storage.persist) {
    // Ask the browser not to evict saves and statistics under storage pressure.
    navigator.storage.persist().catch((error) => console.warn("shell: persistent storage could not be requested", error));
  }
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("./sw.js", { updateViaCache: "none" }).then((registration) => {
    if (!registration) return; // refused by the browser's settings
    const activate = (worker) => worker.postMessage("skip-waiting");
    const activateOnceInstalled = (worker) => {
      if (worker.state === "installed") activate(worker);
      else worker.addEventListener("statechange", () => worker.state === "installed" && activate(worker));
    };
    if (registration.waiting) activate(registration.waiting);
    if (registration.installing) activateOnceInstalled(registration.installing);
    registration.addEventListener("updatefound", () => activateOnceInstalled(registration.installing));
  }).catch((error) => console.warn("shell: offline support is not available here", error));
}

if ("PerformanceObserver" in window) {
  let offlineStarted = false;
  new PerformanceObserver((list, observer) => {
    if (!offlineStarted && list.getEntriesByName("computer-ready").length) {
      offlineStarted = true;
      observer.disconnect();
      startOffline();
    }
  }).observe({ type: "mark", buffered: true });
}

/** The version of the service worker serving this page, or null. */
function servingVersion() {
  const controller = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (!controller) return Promise.resolve(null);
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => resolve(typeof event.data === "string" ? event.data : null);
    controller.postMessage("version", [channel.port2]);
    setTimeout(() => resolve(null), 5000);
  });
}

/** Whether this load runs another version than the last one this browser
 * ran (the version seen is remembered with the prefs): the app then shows
 * its "updated" notice. */
async function checkUpdated() {
  const version = await servingVersion();
  if (version === null) return false;
  const prefs = readPrefs();
  if (prefs.version === version) return false;
  writePrefs({ ...prefs, version });
  return typeof prefs.version === "string";
}

// ------------------------------------------------------------------ sounds
// Quiet tones made with Web Audio, no sound files: the player's move, the
// computer's, and a game won, lost or just ended. Python asks for them when
// the sound setting is on (py/app/page/controller.py). The AudioContext is made on
// the first sound, or the switch turned on, once the page has had a user
// gesture (browsers refuse audio before one). Each tone: [Hz, start s, length s].
const SOUNDS = {
  move: [[660, 0, 0.07]],
  computer: [[440, 0, 0.08]],
  win: [[523, 0, 0.1], [784, 0.11, 0.18]],
  loss: [[392, 0, 0.1], [262, 0.11, 0.22]],
  end: [[523, 0, 0.1], [523, 0.13, 0.12]],
};
const SOUND_PEAK = 0.08; // the gain at a tone's loudest: quiet
let audio = null;
let audioFree = 0; // when the last tone ends: sounds follow, never overlap
// The tests' log of the sounds asked for (only on a page the harness opened).
const soundLog = window.appHarness === true ? (window.appSounds = []) : null;

function audioContext() {
  if (audio) return audio;
  const activation = navigator.userActivation;
  const Context = window.AudioContext || window.webkitAudioContext;
  if ((activation && !activation.hasBeenActive) || !Context) return null;
  try {
    audio = new Context();
  } catch (error) {
    console.warn("shell: no sound", error);
    return null;
  }
  return audio;
}

function primeSound() {
  const context = audioContext();
  if (context && context.state === "suspended") context.resume().catch(() => {});
  return context;
}

function playSound(name) {
  const tones = SOUNDS[name];
  if (!tones) return;
  if (soundLog) soundLog.push(name);
  const context = primeSound();
  if (!context) return;
  const start = Math.max(context.currentTime + 0.01, audioFree);
  for (const [frequency, offset, length] of tones) {
    const at = start + offset;
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(SOUND_PEAK, at + 0.008);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(at);
    oscillator.stop(at + length + 0.02);
    audioFree = Math.max(audioFree, at + length);
  }
}

// ------------------------------------------------------------------- start
async function start() {
  renderCards();
  $("lang").addEventListener("change", (event) => setLanguage(event.target.value));
  $("error-reload").addEventListener("click", () => location.reload());
  $("error-continue").addEventListener("click", () => {
    $("error").hidden = true;
  });
  window.addEventListener("hashchange", onRouteChange);
  // A game moved on in another tab: its card follows while the list is shown.
  window.addEventListener("storage", (event) => {
    if (currentRoute() === null && String(event.key).startsWith("abstract-games/preview/")) refreshCards();
  });
  applyShellParams();
  const code = pickLanguage();
  try {
    // Only a choice made in the menu is remembered; ?lang= is per link.
    await setLanguage(code, false);
  } catch (error) {
    showError("load", error);
    return;
  }
  if (!pythonReady) setLoading("runtime");
  onRouteChange();
}

window.appShell = {
  t,
  has,
  get lang() {
    return lang;
  },
  languages: LANGUAGES,
  route: currentRoute,
  variant: currentVariant,
  routeQuery: currentRouteQuery,
  formatDuration,
  formatPercent,
  formatDate,
  formatNumber: formatValue,
  onLanguage: (listener) => languageListeners.push(listener),
  onRoute: (listener) => routeListeners.push(listener),
  setLoading,
  ready,
  showError,
  // A message for the embedding page, as JSON text from Python (so that
  // None arrives as null): {"type": "gameover", ...}.
  notifyParent: (json) => notifyParent(JSON.parse(json)),
  playSound,
  primeSound,
  // The AI worker: {ready, call(name, request)} (runtime.js's startWorker).
  engine,
  shellParams: SHELL_PARAMS,
  // Resolves to true when a new version took over with this load.
  updated: checkUpdated().catch((error) => {
    console.warn("shell: the version check failed", error);
    return false;
  }),
  catalogsLoaded: null,
};
window.appShell.catalogsLoaded = start();
