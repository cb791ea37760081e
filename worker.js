// The AI worker: a Pyodide interpreter of its own (runtime.js), so the page
// never freezes while the computer thinks. It runs py/worker.py (or, for
// the harness, py/bench_worker.py: the module its name says), whose engines
// runtime.js has imported, and then says {ready: true, from: where its
// interpreter came from (runtime.js, startedFrom)} ({ready: false, error}
// if it cannot start). Then, before any call, it warms up for the game the
// page opens with (py/worker.py's prepare), if any: the browser compiles the
// interpreter's code as it first runs it, and the player's first move would
// wait for that. It answers the page's {id, name, request}
// with {id, reply} or {id, error}: ``name`` must be one of the module's
// ``__export__``, ``request`` (null: the function takes none) and ``reply``
// are JSON text. One call at a time, in the order they came.
import { loadPyodide, startedFrom, workerOptions } from "./runtime.js";

const MODULES = ["worker", "bench_worker"];

async function start() {
  const name = workerOptions().module;
  if (!MODULES.includes(name)) throw new Error(`no worker module ${JSON.stringify(name)}`);
  const pyodide = await loadPyodide();
  const module = pyodide.pyimport(name);
  const exported = new Set(module.__export__.toJs());
  return (fn, request) => {
    if (!exported.has(fn)) throw new Error(`the worker has no function ${JSON.stringify(fn)}`);
    return request === null ? module[fn]() : module[fn](request);
  };
}

const functions = start();
functions.then(
  (call) => {
    postMessage({ ready: true, from: startedFrom() });
    const { game } = workerOptions();
    if (game) {
      try {
        call("prepare", JSON.stringify({ new: game }));
      } catch (error) {
        console.warn("worker: the warm-up failed", error);
      }
    }
  },
  (error) => postMessage({ ready: false, error: String(error?.message ?? error) }),
);

addEventListener("message", async ({ data }) => {
  if (!("id" in data)) return; // runtime.js's
  const { id, name, request } = data;
  try {
    const call = await functions;
    postMessage({ id, reply: call(name, request) });
  } catch (error) {
    postMessage({ id, error: String(error?.message ?? error) });
  }
});
