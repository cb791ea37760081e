// The shell: what must work before Python is ready, and the services the
// Python layer borrows from the browser (window.appShell). This module wires
// the parts of shell/ together: the words (i18n.js), the game list
// (cards.js), the routes (routes.js) and the guide's pages (guide.js), the
// loading indicator and the error panel (loading.js), the URL parameters
// and the messages to an embedding page (embed.js), offline support
// (offline.js: the service worker, sw.js) and the sounds (sounds.js).
// Game logic lives in py/.
//
// The page loads them as one file: tools/build_site.py bundles this module
// and those it imports into vendor/shell/boot.js (esbuild, at `make
// runtime`), the guide's diagrams (figures.js) into a chunk of their own
// that the first guide loads; runtime.js and vendor/games.js stay apart.

// The AI worker's side of the runtime (runtime.js, which index.html loads
// first: the page's interpreter is already starting).
import { loadWorkerArchives, startWorker } from "../runtime.js";
import { renderCards, refreshCards } from "./cards.js";
import { $ } from "./dom.js";
import { applyShellParams, notifyParent, SHELL_PARAMS } from "./embed.js";
import {
  applyCatalog, currentLanguage, formatDate, formatDuration, formatNumber, formatPercent, has, LANGUAGES,
  pickLanguage, readPrefs, t, useLanguage, writePrefs,
} from "./i18n.js";
import { callListener, ready, setLoading, showError } from "./loading.js";
import { checkUpdated } from "./offline.js";
import {
  backToGame, currentPage, currentPageQuery, currentRoute, currentRouteQuery, currentVariant, onRoute, onRouteChange,
  renderRoute, showGameAddress,
} from "./routes.js";
import { playSound, primeSound } from "./sounds.js";

// The computer opponent's worker (worker.js), started with the page (when,
// runtime.js decides), warmed up for the game the page opens with: the
// harness's page runs its bench module in it. The
// mark "computer-ready" (for tools/bench/; it also starts offline support,
// shell/offline.js) is set once it can answer, or has failed to start
// (py/app/page/engine.py then thinks on the page).
function startEngine() {
  const engine = startWorker(window.appHarness === true ? "bench_worker" : "worker", currentRoute());
  engine.ready.finally(() => performance.mark("computer-ready")).catch(() => {});
  return engine;
}

const engine = startEngine();
const languageListeners = [];

async function setLanguage(code, remember = true) {
  if (!LANGUAGES.includes(code)) return;
  await useLanguage(code);
  document.documentElement.lang = code;
  $("lang").value = code;
  $("manifest").href = `./vendor/manifest-${code}.webmanifest`;
  if (remember) writePrefs({ ...readPrefs(), lang: code });
  applyCatalog();
  renderRoute();
  for (const listener of languageListeners) callListener(listener, code);
}

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
  setLoading("runtime");
  onRouteChange();
}

window.appShell = {
  t,
  has,
  get lang() {
    return currentLanguage();
  },
  languages: LANGUAGES,
  route: currentRoute,
  variant: currentVariant,
  routeQuery: currentRouteQuery,
  page: currentPage,
  pageQuery: currentPageQuery,
  gameAddress: backToGame,
  showGameAddress,
  formatDuration,
  formatPercent,
  formatDate,
  formatNumber,
  onLanguage: (listener) => languageListeners.push(listener),
  onRoute,
  setLoading,
  ready: () => {
    ready();
    notifyParent({ type: "ready", game: currentRoute() });
  },
  showError,
  // A message for the embedding page, as JSON text from Python (so that
  // None arrives as null): {"type": "gameover", ...}.
  notifyParent: (json) => notifyParent(JSON.parse(json)),
  playSound,
  primeSound,
  // The AI worker: {ready, call(name, request)} (runtime.js's startWorker).
  engine,
  // Without the worker: its archives on the page's module path, so that the
  // page can think with the engines' data (runtime.js).
  loadWorkerArchives,
  shellParams: SHELL_PARAMS,
  // Resolves to true when a new version took over with this load.
  updated: checkUpdated().catch((error) => {
    console.warn("shell: the version check failed", error);
    return false;
  }),
  catalogsLoaded: null,
};
window.appShell.catalogsLoaded = start();
