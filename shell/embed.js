// The page's own URL parameters and the frame: ?game=, ?theme=, ?embed=
// (py/app/model/embed.py reads the games' settings), the messages to an
// embedding page (docs/embedding.md) and the page's refusal of every
// message from another window.

import { currentRoute, GAMES } from "./routes.js";

// The URL parameters the shell reads; py/app/model/embed.py reads the games'
// settings (and warns about any other name).
export const SHELL_PARAMS = ["game", "lang", "theme", "embed"];
const THEMES = ["light", "dark"];
// Every message to an embedding page carries this source.
const MESSAGE_SOURCE = "abstract-games";
const EMBEDDED = window.parent !== window;

// ?game=hex opens that game (an explicit #/route wins: it is where the player
// went), ?theme=light|dark overrides the system's, ?embed=1 is the compact
// layout for an iframe; ?lang= is read by pickLanguage. A bad value is
// ignored with a warning. Values are compared, never inserted into the page.
export function applyShellParams() {
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

// Messages to the embedding page: {source: "abstract-games", type: "ready" |
// "resize" | "gameover", ...} (docs/embedding.md). Posted to any origin
// ("*"): the app cannot know who embeds it, and the messages hold nothing
// private (the game's name, its result, the page's height), nothing the
// embedding page could not see in the frame anyway.
export function notifyParent(message) {
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
