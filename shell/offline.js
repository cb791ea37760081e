// Offline support: the service worker (sw.js), registered once the AI
// worker is up, and the check whether this load runs a new version.

import { readPrefs, writePrefs } from "./i18n.js";

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
export async function checkUpdated() {
  const version = await servingVersion();
  if (version === null) return false;
  const prefs = readPrefs();
  if (prefs.version === version) return false;
  writePrefs({ ...prefs, version });
  return typeof prefs.version === "string";
}
