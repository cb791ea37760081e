// The Python runtime, the same in the page and in the AI worker: our pinned
// Pyodide (vendor/pyodide), started as soon as this module runs, with the
// app's Python in one archive (vendor/python.zip, each module with its
// bytecode: tools/build_site.py) fetched alongside and put on the module path.
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
// A snapshot is used only with the Pyodide and the archive it was made
// with, and one that fails to load is dropped: the interpreter then starts
// as on a first visit (README, "Start-up").
import { loadPyodide as startPyodide, version } from "./vendor/pyodide/pyodide.mjs";
import { ARCHIVE_KEY } from "./vendor/python.js";

// PyScript reads the interpreter's version from its module.
export { version };

const IN_PAGE = typeof document !== "undefined";
const INDEX = new URL("./vendor/pyodide/", import.meta.url).href;
const ARCHIVE = new URL("./vendor/python.zip", import.meta.url);
// Where the archive goes in the interpreter (tools/build_site.py compiles
// the bytecode for this place: tracebacks name it).
const ARCHIVE_PATH = "/home/pyodide/python.zip";
const ON_PATH = `import sys; sys.path.insert(0, ${JSON.stringify(ARCHIVE_PATH)})`;
// What the worker imports before it keeps the snapshot (py/worker.py).
const ENGINES = "import worker; worker.warm_up()";
// The snapshot: one per copy of the app (its URL), in a cache of its own;
// its key names what it was made from (a change to what goes into it must
// change SNAPSHOT_FORMAT).
const SNAPSHOTS = "abstract-games-snapshots";
const SNAPSHOT = new URL("./vendor/python.snapshot", import.meta.url).href;
const SNAPSHOT_FORMAT = 1;
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
let restoredFromSnapshot = false;

/** Whether this interpreter was restored from a snapshot (once started). */
export function restored() {
  return restoredFromSnapshot;
}

/** The interpreter, with the app's Python importable; started on the first
 * call, the same promise after that. PyScript's options (its output
 * handlers, which write to the console as Pyodide's own do) are not needed. */
export function loadPyodide() {
  started ??= start();
  return started;
}

/** In the AI worker: what the page gave it in its name ({module, snapshot}). */
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

async function start() {
  const archive = fetch(ARCHIVE).then(async (response) => {
    if (!response.ok) throw new Error(`${ARCHIVE.pathname}: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  });
  archive.catch(() => {}); // the error is thrown below, once awaited
  let pyodide = null;
  if (snapshotStored()) {
    const snapshot = readSnapshot();
    snapshot.catch(() => {}); // Pyodide awaits it later: no unhandled rejection meanwhile
    try {
      pyodide = await startPyodide({ indexURL: INDEX, _loadSnapshot: snapshot });
    } catch (error) {
      console.warn("runtime: the stored Python snapshot did not load; starting afresh", error);
      forgetSnapshot();
    }
  }
  restoredFromSnapshot = pyodide !== null;
  if (restoredFromSnapshot && IN_PAGE) performance.mark("python-restored");
  const keep = !restoredFromSnapshot && !IN_PAGE && "caches" in globalThis;
  pyodide ??= await startPyodide({ indexURL: INDEX, ...(keep ? { _makeSnapshot: true } : {}) });
  pyodide.FS.writeFile(ARCHIVE_PATH, await archive);
  if (!restoredFromSnapshot) {
    pyodide.runPython(ON_PATH);
    if (!IN_PAGE) pyodide.runPython(ENGINES);
  }
  if (keep) keepSnapshot(pyodide);
  return pyodide;
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
 * or the harness's "bench_worker"): ``ready`` resolves once its engines are
 * imported (rejects if it cannot start), ``call(name, request)`` resolves
 * to the reply of the module's exported function ``name`` to the JSON text
 * ``request`` (none if omitted; rejects with the worker's error).
 *
 * With a snapshot stored, the worker restores it while the page restores
 * its own; without, it starts once the page's interpreter is up, so that two
 * interpreters starting from nothing do not share the processor. */
export function startWorker(module) {
  const snapshot = snapshotStored();
  const create = () => new Worker(new URL("./worker.js", import.meta.url),
    { type: "module", name: JSON.stringify({ module, snapshot }) });
  // The page's failure is the page's; the worker may still start.
  const worker = (snapshot ? Promise.resolve() : loadPyodide()).then(create, create);
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
        if (data.restored) performance.mark("computer-restored");
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
