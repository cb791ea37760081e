// Start-up and failure: the loading indicator (its bar moves as the
// runtime's files arrive and Python starts, and only forward) and the
// friendly error panel instead of a dead page or a traceback, for a start
// that fails or takes too long and for an error once the app runs.

import { startFailure } from "../runtime.js";
import { $ } from "./dom.js";
import { has, t } from "./i18n.js";

const LOAD_TIMEOUT_MS = 90000;
let pythonReady = false;

/** ``listener(value)``; an error in it shows the error panel. */
export function callListener(listener, value) {
  try {
    listener(value);
  } catch (error) {
    showError("runtime", error);
  }
}

const stages = { runtime: 0.1, starting: 0.7, games: 0.9, ready: 1 };
let loadingStage = null;
let loadingFill = 0;

// The loading bar only moves forward: the runtime's files can all be in
// before the catalog is, and the catalog's arrival must not take it back.
// Before the catalog is in, the text waits for it (applyCatalog writes it).
export function setLoading(stage) {
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
const runtimeFiles = { "pyodide.mjs": 0.02, "pyodide.asm.mjs": 0.08, "python-stdlib.zip": 0.15, "pyodide.asm.wasm": 0.35 };
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

/** Python is ready and the board drawn: the loading indicator goes, and
 * load errors are over. */
export function ready() {
  setLoading("ready");
  pythonReady = true;
  clearTimeout(loadTimer);
  document.body.dataset.ready = "true";
  $("loading").hidden = true;
}

startFailure.then((reason) => {
  if (!pythonReady) showError("load", reason);
});

const loadTimer = setTimeout(() => {
  if (!pythonReady) showError("load", new Error("Python did not start in time"));
}, LOAD_TIMEOUT_MS);

/** A friendly panel instead of a dead page or a traceback; details go to the
 * console. kind: "load" (the engine never started) or "runtime". */
export function showError(kind, detail) {
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
