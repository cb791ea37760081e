// The Python runtime, the same in the page and in the AI worker: our pinned
// Pyodide (vendor/pyodide) with the part of its standard library the app
// imports (vendor/python-stdlib.zip: tools/stdlib.py), started as soon as
// this module runs, with the app's Python (vendor/python*.zip, bytecode:
// tools/build_site.py) fetched alongside and put on the module path: the
// page loads what both share and its screens, the worker what both share and
// its own (the engines' data).
//
// The page's PyScript takes its interpreter from here (pyscript.toml:
// interpreter = "./runtime.js", which PyScript imports and calls
// loadPyodide of), so the interpreter starts with the page instead of after
// PyScript's own start, and no module waits for the interpreter to be fetched.
// The AI worker (worker.js) starts its interpreter the same way; the page
// talks to it through startWorker below.
//
// Snapshots: the AI worker of a visit that finds none (the first, or the
// first after an update) keeps its interpreter, once the engines are
// imported, as a memory snapshot in Cache Storage (Pyodide's _makeSnapshot
// and makeMemorySnapshot); later visits restore it (_loadSnapshot) in the
// page and in the worker instead of starting Python and importing again.
// On such a visit the worker itself does not start Python either: it
// restores a snapshot the page makes of its own interpreter the moment it
// is up (bareSnapshot), while the page goes on to draw the board.
// A snapshot is used only with the Pyodide and the archive it was made
// with, and one that fails to load is dropped: the interpreter then starts
// as on a first visit (docs/start-up.md).
import { loadPyodide as startPyodide, version } from "./vendor/pyodide/pyodide.mjs";
import { ARCHIVE_KEY, ARCHIVES, LOCK } from "./vendor/python.js";

// PyScript reads the interpreter's version from its module.
export { version };

const IN_PAGE = typeof document !== "undefined";
const INDEX = new URL("./vendor/pyodide/", import.meta.url).href;
// The standard library: Pyodide's, cut to the modules the app imports and
// stored as bytecode (tools/stdlib.py), instead of the whole of it.
const STDLIB = new URL("./vendor/python-stdlib.zip", import.meta.url).href;
// Pyodide's lock file without its packages (the app loads none): one request
// fewer (tools/build_site.py).
const PYODIDE = { indexURL: INDEX, stdLibURL: STDLIB, lockFileContents: LOCK };
// Where the archives of our Python go in the interpreter
// (tools/build_site.py compiles the bytecode for this place: tracebacks name it).
const ARCHIVE_HOME = "/home/pyodide/";
// This interpreter's archives: the page's what both share and its screens,
// the AI worker's what both share and its own (the engines' data).
const MINE = IN_PAGE ? ARCHIVES.page : ARCHIVES.worker;
// What the worker imports before it keeps the snapshot (py/worker.py).
const ENGINES = "import worker; worker.warm_up()";
// The snapshot: one per copy of the app (its URL), in a cache of its own;
// its key names what it was made from (a change to what goes into it must
// change SNAPSHOT_FORMAT).
const SNAPSHOTS = "abstract-games-snapshots";
const SNAPSHOT = new URL("./vendor/python.snapshot", import.meta.url).href;
const SNAPSHOT_FORMAT = 2;
const SNAPSHOT_KEY = `pyodide ${version}, format ${SNAPSHOT_FORMAT}, ${ARCHIVE_KEY}`;
// The page remembers which snapshot is stored (localStorage answers at once,
// where opening Cache Storage takes a while on a first visit), and tells
// the worker in its name (a worker has no localStorage; its URL stays the
// one the service worker precached).
const SNAPSHOT_NOTE = `abstract-games/python-snapshot:${SNAPSHOT}`;

// What a Pyodide snapshot starts with (its makeMemorySnapshot): checked
// before the bytes go to the interpreter, which hangs on some bad ones.
const SNAPSHOT_MAGIC = 1886286592;

let started = null;
let source = "fresh";
// In the page: the snapshot of its interpreter for an AI worker started
// without a stored one (bareSnapshot; null if none could be made).
let givePageSnapshot = null;
const pageSnapshot = IN_PAGE ? new Promise((resolve) => {
  givePageSnapshot = resolve;
}) : null;
// In an AI worker started without a stored snapshot: the page's snapshot
// (null if the page has none), which it sends once its interpreter is up.
const fromPage = !IN_PAGE && workerOptions().snapshot === "page" ? new Promise((resolve) => {
  addEventListener("message", function take({ data }) {
    if (data && "pageSnapshot" in data) {
      removeEventListener("message", take);
      resolve(data.pageSnapshot);
    }
  });
}) : null;

/** Where this interpreter came from (once started): "stored" (the stored
 * snapshot), "page" (the AI worker's: the page's snapshot) or "fresh". */
export function startedFrom() {
  return source;
}

/** The interpreter, with the app's Python importable; started on the first
 * call, the same promise after that. PyScript's options (its output
 * handlers, which write to the console as Pyodide's own do) are not needed. */
export function loadPyodide() {
  started ??= start();
  return started;
}

/** In the AI worker: what the page gave it in its name ({module, snapshot, game}). */
export function workerOptions() {
  try {
    return JSON.parse(self.name);
  } catch {
    return {};
  }
}

/** Whether a snapshot for this Pyodide and this archive was stored. */
function snapshotStored() {
  if (!IN_PAGE) return workerOptions().snapshot === true;
  try {
    return localStorage.getItem(SNAPSHOT_NOTE) === SNAPSHOT_KEY;
  } catch {
    return false;
  }
}

// Whether a snapshot was stored when this page (or worker) started.
const STORED = snapshotStored();

/** [name, its bytes (a promise)] for each of these archives, fetched at once. */
function fetchArchives(names) {
  return names.map((name) => {
    const url = new URL(`./vendor/${name}`, import.meta.url);
    const bytes = fetch(url).then(async (response) => {
      if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    });
    bytes.catch(() => {}); // the error is thrown where it is awaited
    return [name, bytes];
  });
}

/** Write the archives into the interpreter and put exactly ``names`` of
 * ours on the module path, first: an interpreter restored from a snapshot
 * the other kind made has that one's archives on it. */
async function putOnPath(pyodide, archives, names) {
  for (const [name, bytes] of archives) pyodide.FS.writeFile(ARCHIVE_HOME + name, await bytes);
  pyodide.runPython(`import sys
ours = ${JSON.stringify(names.map((name) => ARCHIVE_HOME + name))}
theirs = [p for p in sys.path if p.startswith(${JSON.stringify(ARCHIVE_HOME)}) and p.endswith(".zip") and p not in ours]
sys.path[:] = ours + [p for p in sys.path if p not in ours and p not in theirs]
for p in theirs:
    sys.path_importer_cache.pop(p, None)`);
}

async function start() {
  const archives = fetchArchives(MINE);
  let pyodide = null;
  if (STORED) {
    const snapshot = readSnapshot();
    snapshot.catch(() => {}); // Pyodide awaits it later: no unhandled rejection meanwhile
    try {
      pyodide = await startPyodide({ ...PYODIDE, _loadSnapshot: snapshot });
    } catch (error) {
      console.warn("runtime: the stored Python snapshot did not load; starting afresh", error);
      forgetSnapshot();
    }
  }
  const restored = pyodide !== null;
  if (restored) source = "stored";
  if (restored && IN_PAGE) performance.mark("python-restored");
  // A worker that starts without a stored snapshot keeps one for the next visit.
  const keep = !restored && !IN_PAGE && "caches" in globalThis;
  const options = { ...PYODIDE, ...(keep ? { _makeSnapshot: true } : {}) };
  if (!restored && fromPage) {
    // Started at once: the interpreter's files load and compile while the
    // page's interpreter starts, and Pyodide waits for the snapshot itself.
    const snapshot = fromPage.then((bytes) => bytes ?? Promise.reject(null));
    try {
      pyodide = await startPyodide({ ...options, _loadSnapshot: snapshot });
      source = "page";
    } catch (error) {
      // None sent: the page said why.
      if (error !== null) console.warn("runtime: the page's Python snapshot did not load; starting afresh", error);
    }
  }
  pyodide ??= await startPyodide(options);
  if (IN_PAGE) performance.mark("python-up"); // for profiling, as py/main.py's marks
  if (IN_PAGE && !STORED) givePageSnapshot(bareSnapshot(pyodide));
  await putOnPath(pyodide, archives, MINE);
  if (!restored && !IN_PAGE) pyodide.runPython(ENGINES);
  if (keep) keepSnapshot(pyodide);
  return pyodide;
}

/** In the page, to think without the AI worker (py/app/page/engine.py, when
 * the worker did not start): the worker's archives on the page's module
 * path too, for the engines' data. */
export async function loadWorkerArchives() {
  const pyodide = await loadPyodide();
  const extra = ARCHIVES.worker.filter((name) => !MINE.includes(name));
  await putOnPath(pyodide, fetchArchives(extra), [...MINE, ...extra]);
}

/** The page's interpreter as it is right after starting, nothing of ours
 * run in it yet: what the AI worker of a visit without a stored snapshot
 * starts from (it restores this instead of starting Python again, which
 * would take the processor for a second and more). Pyodide makes snapshots
 * only of interpreters started for it (_makeSnapshot, which in the page
 * would hand Python its JavaScript globals through a recording proxy);
 * at this point nothing from JavaScript is held but what it expects, so
 * the snapshot is whole. Null if it cannot be made. */
function bareSnapshot(pyodide) {
  const config = pyodide._api.config;
  const was = config._makeSnapshot;
  config._makeSnapshot = true;
  try {
    return pyodide.makeMemorySnapshot();
  } catch (error) {
    console.warn("runtime: no Python snapshot for the AI worker could be made", error);
    return null;
  } finally {
    config._makeSnapshot = was;
  }
}

/** The stored snapshot's bytes; rejects when there is none for this key,
 * or when they are not whole. */
async function readSnapshot() {
  const response = await (await caches.open(SNAPSHOTS)).match(SNAPSHOT);
  if (!response || response.headers.get("x-snapshot-key") !== SNAPSHOT_KEY) {
    throw new Error("no Python snapshot for this version is stored");
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  const magic = bytes.length >= 4 ? new DataView(bytes.buffer).getUint32(0, true) : null;
  if (String(bytes.length) !== response.headers.get("x-snapshot-bytes") || magic !== SNAPSHOT_MAGIC) {
    throw new Error("the stored Python snapshot is damaged");
  }
  return bytes;
}

/** Make the snapshot now, before anything else runs, and store it in the
 * background; the page hears of it (a ``snapshot`` message) once stored. */
function keepSnapshot(pyodide) {
  let bytes;
  try {
    bytes = pyodide.makeMemorySnapshot();
  } catch (error) {
    console.warn("runtime: no Python snapshot could be made", error);
    return;
  }
  caches.open(SNAPSHOTS)
    .then((cache) => cache.put(SNAPSHOT, new Response(bytes, {
      headers: { "x-snapshot-key": SNAPSHOT_KEY, "x-snapshot-bytes": String(bytes.length) },
    })))
    .then(() => postMessage({ snapshot: SNAPSHOT_KEY }))
    .catch((error) => console.warn("runtime: the Python snapshot could not be stored", error));
}

function forgetSnapshot() {
  if (IN_PAGE) {
    try {
      localStorage.removeItem(SNAPSHOT_NOTE);
    } catch {
      // nothing was remembered then
    }
  }
  caches.open(SNAPSHOTS).then((cache) => cache.delete(SNAPSHOT)).catch(() => {});
}

/** In the page: resolves to the reason if the interpreter fails to start.
 * A runtime file that does not load can fail it before the shell listens
 * for errors (this module runs first), so the failure waits here for it;
 * some failures (the WebAssembly not loading) show only as an unhandled
 * rejection, after which Pyodide never settles. */
export const startFailure = IN_PAGE ? new Promise((resolve) => {
  const failed = (event) => resolve(event.reason);
  addEventListener("unhandledrejection", failed);
  loadPyodide().then(() => removeEventListener("unhandledrejection", failed), resolve);
}) : null;

/** The AI worker (worker.js running the Python module ``module``: "worker",
 * or the harness's "bench_worker"), which warms up for ``game`` (the game
 * the page opens with, or null) once ready: ``ready`` resolves once its engines are
 * imported (rejects if it cannot start), ``call(name, request)`` resolves
 * to the reply of the module's exported function ``name`` to the JSON text
 * ``request`` (none if omitted; rejects with the worker's error).
 *
 * It starts with the page. With a snapshot stored, it restores it while the
 * page restores its own. Without, it loads the interpreter's files and
 * waits for the page's snapshot (bareSnapshot), sent as soon as the page's
 * interpreter is up: two interpreters starting from nothing would share
 * the processor and both be late. */
export function startWorker(module, game = null) {
  const snapshot = STORED || "page";
  const worker = new Promise((resolve) => resolve(new Worker(new URL("./worker.js", import.meta.url),
    { type: "module", name: JSON.stringify({ module, snapshot, game }) })));
  if (snapshot === "page") {
    // The page's failure is the page's: without its snapshot the worker starts afresh.
    loadPyodide().catch(() => givePageSnapshot(null));
    Promise.all([worker, pageSnapshot]).then(([thread, bytes]) => {
      thread.postMessage({ pageSnapshot: bytes }, bytes ? [bytes.buffer] : []);
    }, () => {});
  }
  const pending = new Map();
  let next = 0;
  const ready = worker.then((thread) => new Promise((resolve, reject) => {
    thread.addEventListener("message", ({ data }) => {
      if ("snapshot" in data) {
        try {
          localStorage.setItem(SNAPSHOT_NOTE, data.snapshot);
        } catch {
          // not remembered: the next visit starts from nothing again
        }
      } else if ("ready" in data) {
        if (data.from === "stored") performance.mark("computer-restored");
        if (data.from === "page") performance.mark("computer-from-page");
        if (data.ready) resolve();
        else reject(new Error(data.error));
      } else if (pending.has(data.id)) {
        const call = pending.get(data.id);
        pending.delete(data.id);
        if ("error" in data) call.reject(new Error(data.error));
        else call.resolve(data.reply);
      }
    });
    thread.addEventListener("error", (event) => {
      const error = new Error(`the AI worker failed: ${event.message || "it could not be loaded"}`);
      reject(error);
      for (const call of pending.values()) call.reject(error);
      pending.clear();
    });
  }));
  ready.catch(() => {}); // the page decides what a worker that did not start means
  return {
    module,
    ready,
    call(name, request) {
      return worker.then((thread) => new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        thread.postMessage({ id, name, request: request === undefined ? null : String(request) });
      }));
    },
  };
}

// In the page the interpreter starts with this module (index.html loads it
// first; startFailure above has started it): nothing waits for the rest of
// the page's scripts.
